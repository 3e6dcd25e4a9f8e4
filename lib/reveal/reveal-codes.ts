import "server-only";
import { z } from "zod";
import { multiLineText, singleLineText } from "@/lib/validation";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/http/parse";
import { openLedgerEntry } from "@/lib/idempotency/ledger";
import { getSettings } from "@/lib/settings/get-settings";
import { upstream } from "@/lib/upstream/service";
import { toAppError } from "@/lib/upstream/to-app-error";
import { confirmStepUp, type StepUpSession } from "./step-up";

export const revealRequestSchema = z
  .object({
    idempotencyKey: z.string().regex(/^[\x21-\x7e]{1,128}$/, "Must be 1–128 printable characters."),
    ticket: singleLineText({ error: "Enter the ticket reference." }).trim().min(1, "Enter the ticket reference.").max(64, "Use at most 64 characters."),
    reason: multiLineText({ error: "Say why the codes are needed." }).trim().min(5, "Say why the codes are needed (at least 5 characters).").max(500, "Use at most 500 characters."),
    password: singleLineText().max(256).optional(),
  })
  .strict();

export type RevealedCodes = { orderId: string; revealCount: number; artifacts: { type: string; value: string; expiresAtUtc: string | null }[] };

/**
 * Reveals an order's codes to one support person, for a stated reason, after a fresh
 * password confirmation, within an hourly quota. The codes go back to the caller only:
 * never to the database, the logs or the audit row, which records who, why, when, the
 * upstream's revealCount and correlationId. A retry under the same idempotency key is the
 * same reveal upstream (counted once).
 */
export async function revealCodes(actor: Actor, session: StepUpSession, orderId: string, input: unknown): Promise<RevealedCodes> {
  assertCan(actor, "codes.reveal");
  const request = parseInput(revealRequestSchema, input);
  if (!/^[A-Za-z0-9._~-]{1,200}$/.test(orderId)) throw new AppError("not_found", "There is no such order.");
  await confirmStepUp(actor, session, request.password);
  await enforceQuota(actor, orderId);

  await openLedgerEntry(request.idempotencyKey, "order.reveal", { orderId }, actor.staffId);
  let reveal;
  try {
    reveal = await upstream().revealFulfillment(orderId, request.idempotencyKey, { priority: "interactive", deadlineMs: 45_000 });
  } catch (error) {
    const appError = toAppError(error);
    await db().$transaction((tx) =>
      recordAudit(tx, {
        action: "order.reveal_refused",
        actor,
        targetType: "order",
        targetId: orderId,
        correlationId: (appError as AppError).correlationId,
        details: { ticket: request.ticket, reason: request.reason, outcome: (appError as AppError).code ?? "error" },
      }),
    );
    throw appError;
  }

  const { data, correlationId } = reveal;
  await db().$transaction(async (tx) => {
    await tx.idempotencyKey.update({ where: { key: request.idempotencyKey }, data: { state: "succeeded", resultId: orderId, correlationId, attempts: { increment: 1 } } });
    await recordAudit(tx, {
      action: "order.reveal",
      actor,
      targetType: "order",
      targetId: orderId,
      correlationId,
      details: { ticket: request.ticket, reason: request.reason, revealCount: data.revealCount, items: data.artifacts.length },
    });
  });
  return { orderId: data.orderId, revealCount: data.revealCount, artifacts: data.artifacts };
}

/** Reveals per person per hour; past the quota the reveal is refused and admins are alerted (audit). */
async function enforceQuota(actor: Actor, orderId: string): Promise<void> {
  const { revealQuotaPerHour } = await getSettings();
  const used = await db().auditEvent.count({ where: { action: "order.reveal", actorId: actor.staffId, at: { gt: new Date(Date.now() - 3_600_000) } } });
  if (used < revealQuotaPerHour) return;
  await db().$transaction((tx) =>
    recordAudit(tx, { action: "order.reveal_quota_exceeded", actor, targetType: "order", targetId: orderId, details: { quota: revealQuotaPerHour } }),
  );
  throw new AppError("reveal_quota_exceeded", `You have revealed codes ${used} times in the last hour, the most allowed. An admin has been alerted; try again later.`, { status: 429 });
}
