import "server-only";
import { randomUUID } from "node:crypto";
import { db, Prisma, type Tx } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { notify } from "@/lib/notifications/notify";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { getSettings } from "@/lib/settings/get-settings";
import { transitionReveal } from "./transition-reveal";

/** Namespace of the per-person reveal lock (two-key advisory locks; the second key is the person). */
const REVEAL_LOCK = 72_613_011;
const HOUR_MS = 3_600_000;

export type RevealRequest = { idempotencyKey: string; ticket: string; reason: string };
export type StartedReveal = { id: string; correlationId: string; idempotencyKey: string };

type Outcome =
  { kind: "started"; reveal: StartedReveal } | { kind: "over_quota"; used: number; quota: number } | { kind: "conflict" };

/**
 * Lock, check, record — in one transaction, before anything is asked upstream: the
 * person's reveals are serialized by an advisory lock, the last hour's attempts (every
 * state) are counted against the quota, and the reveal's row is committed `started` with
 * its audit entry. If any of it cannot be written, this throws and nothing is revealed.
 *
 * A retry under the same idempotency key is the same reveal: it reuses its row (no new
 * row, no second count), as the upstream will not count it twice either.
 */
export async function startReveal(actor: Actor, orderId: string, request: RevealRequest): Promise<StartedReveal> {
  const { revealQuotaPerHour } = await getSettings();
  // Generous waits: parallel reveals of one person queue on the lock, each holding it for milliseconds.
  let outcome: Outcome;
  try {
    outcome = await db().$transaction((tx) => lockCheckRecord(tx, actor, orderId, request, revealQuotaPerHour), {
      maxWait: 15_000,
      timeout: 15_000,
    });
  } catch (error) {
    // Two people sending one key at the same moment: the second finds it taken.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") outcome = { kind: "conflict" };
    else throw notRecorded(orderId, error);
  }
  if (outcome.kind === "conflict") {
    throw new AppError("conflict", "This reveal was already submitted for another order or by another person. Start a new one.");
  }
  if (outcome.kind === "over_quota") {
    throw new AppError(
      "reveal_quota_exceeded",
      `You have revealed codes ${outcome.used} times in the last hour, the most allowed. An admin has been alerted; try again later.`,
      { status: 429 },
    );
  }
  return outcome.reveal;
}

/** Fail closed: without a committed record nothing is asked upstream. The cause is logged, not shown. */
function notRecorded(orderId: string, error: unknown): AppError {
  const correlationId = randomUUID();
  logger.error("reveal not recorded, so not performed", {
    correlationId,
    orderId,
    error: error instanceof Error ? error.message : String(error),
  });
  return new AppError(
    "reveal_not_recorded",
    "The reveal could not be recorded, so nothing was revealed. Try again; if it keeps failing, quote the correlation id to an admin.",
    { status: 503, correlationId },
  );
}

async function lockCheckRecord(tx: Tx, actor: Actor, orderId: string, request: RevealRequest, quota: number): Promise<Outcome> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REVEAL_LOCK}::int, hashtext(${actor.staffId}))`;

  const earlier = await tx.codeReveal.findUnique({ where: { idempotencyKey: request.idempotencyKey } });
  if (earlier) {
    if (earlier.staffId !== actor.staffId || earlier.orderId !== orderId) return { kind: "conflict" };
    await transitionReveal(tx, earlier.id, "started"); // failed → started; a succeeded one stays so
    return {
      kind: "started",
      reveal: { id: earlier.id, correlationId: earlier.correlationId, idempotencyKey: earlier.idempotencyKey },
    };
  }

  const used = await tx.codeReveal.count({
    where: { staffId: actor.staffId, startedAt: { gt: new Date(Date.now() - HOUR_MS) } },
  });
  if (used >= quota) {
    // Committed with the refusal: this alert is what admins see on the audit page.
    await recordAudit(tx, {
      action: "order.reveal_quota_exceeded",
      actor,
      targetId: orderId,
      details: { quota, used },
    });
    // Admins hear of it with the refusal, once per person and hour however often they retry.
    await notify(tx, "reveal.quota_alert", {
      staffId: actor.staffId,
      name: actor.name,
      email: actor.email,
      used,
      quota,
      at: new Date(),
    });
    return { kind: "over_quota", used, quota };
  }

  const correlationId = randomUUID();
  const row = await tx.codeReveal.create({
    data: {
      idempotencyKey: request.idempotencyKey,
      orderId,
      staffId: actor.staffId,
      actorEmail: actor.email,
      ip: actor.ip ?? null,
      ticket: request.ticket,
      reason: request.reason,
      correlationId,
    },
  });
  await recordAudit(tx, {
    action: "order.reveal_started",
    actor,
    targetId: orderId,
    correlationId,
    details: { revealId: row.id, ticket: request.ticket, reason: request.reason },
  });
  return { kind: "started", reveal: { id: row.id, correlationId, idempotencyKey: row.idempotencyKey } };
}
