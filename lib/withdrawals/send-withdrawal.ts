import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db, type Prisma } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { minorToDecimal, toMinor } from "@/lib/money";
import type { Priority, Withdrawal } from "@/lib/upstream/client";
import { spentBy, spentByJob, upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { claimWithdrawal, releaseWithdrawal } from "./lease";
import { assertWithdrawalMove } from "./states";

/**
 * Sending an approved withdrawal upstream, exactly once. `POST /withdrawals` takes no
 * idempotency key (contract §4.9), so a lost answer is never settled by resending: one sender
 * at a time (lease.ts); `sendStartedAt` stored before the call; after a timeout, 5xx or dropped
 * connection, a matching `requested` withdrawal upstream (same amount and currency, since the
 * first attempt less MATCH_SKEW_MS, not linked elsewhere) is linked; with none, a resend only
 * after RESEND_AFTER_MS and another read, at most MAX_SENDS times; a 4xx other than 429 created
 * nothing and fails the request. The whole rule and its limitation:
 * docs/decisions/0006-withdrawals-sent-once-without-a-key.md.
 */
export const RESEND_AFTER_MS = 60_000;
export const MAX_SENDS = 3;
export const MATCH_SKEW_MS = 5 * 60_000;
const MAX_LIST_PAGES = 20;

type Row = Prisma.WithdrawalRequestGetPayload<object>;
export type SendOutcome = "sent" | "matched" | "refused" | "unknown" | "busy";

/** First send of an approved request (the approver's click, or the worker after a crash). */
export async function sendApprovedWithdrawal(
  id: string,
  options: { actor?: Actor | null; priority?: Priority } = {},
): Promise<SendOutcome> {
  const now = new Date();
  assertWithdrawalMove("approved", "sending");
  const row = await claimWithdrawal(
    { id, state: "approved" },
    { state: "sending", sendStartedAt: now, lastSendAt: now, sendAttempts: { increment: 1 }, nextCheckAt: null },
  );
  if (!row) return "busy";
  return attemptSend(row, options.priority ?? "interactive", options.actor ?? null);
}

/** A `sending` request whose outcome is not known: match first, resend only when safe. */
export async function resolveSendingWithdrawal(
  id: string,
  options: { priority?: Priority; actor?: Actor | null } = {},
): Promise<SendOutcome> {
  const priority = options.priority ?? "background";
  const actor = options.actor ?? null;
  const row = await claimWithdrawal({ id, state: "sending" });
  if (!row) return "busy";
  let match: Withdrawal | null;
  try {
    match = await findUpstreamMatch(row);
  } catch (error) {
    await releaseWithdrawal(row.id, { nextCheckAt: new Date(Date.now() + 15_000) });
    logger.warn("withdrawal: could not read upstream withdrawals to resolve a send; trying again later", {
      withdrawalRequestId: row.id,
      code: upstreamFailure(error)?.code ?? "error",
    });
    return "unknown";
  }
  if (match) return (await linkUpstream(row, match, null, { matched: true, actor })) ? "matched" : "unknown";

  const since = Date.now() - (row.lastSendAt ?? row.sendStartedAt ?? new Date(0)).getTime();
  if (since < RESEND_AFTER_MS) {
    await releaseWithdrawal(row.id, { nextCheckAt: new Date(Date.now() + RESEND_AFTER_MS - since) });
    return "unknown";
  }
  if (row.sendAttempts >= MAX_SENDS) {
    await markFailed(
      row,
      "not_confirmed",
      `Sent ${row.sendAttempts} times without an answer, and the Issuing Service does not list it. Nothing was paid out; request it again if it is still needed.`,
      null,
    );
    return "refused";
  }
  const now = new Date();
  const resend = await db().withdrawalRequest.update({
    where: { id: row.id },
    data: { lastSendAt: now, sendAttempts: { increment: 1 } },
  });
  logger.info("withdrawal: not found upstream after an unanswered send; sending again", {
    withdrawalRequestId: row.id,
    attempt: resend.sendAttempts,
  });
  return attemptSend(resend, priority, actor);
}

async function attemptSend(row: Row, priority: Priority, actor: Actor | null): Promise<SendOutcome> {
  const body = { amount: Number(minorToDecimal(row.amountMinor, row.currency)), currency: row.currency };
  try {
    const { data, correlationId } = await upstream().createWithdrawal(body, {
      priority: "money",
      by: actor ? spentBy(actor) : spentByJob("withdrawals-send"),
    });
    return (await linkUpstream(row, data, correlationId ?? null, { matched: false, actor })) ? "sent" : "unknown";
  } catch (error) {
    const failure = upstreamFailure(error);
    if (failure?.code === "budget_exhausted") {
      // Never left this process: the attempt does not count.
      const first = row.sendAttempts <= 1;
      if (first) assertWithdrawalMove(row.state, "approved");
      await releaseWithdrawal(row.id, {
        state: first ? "approved" : "sending",
        sendAttempts: { decrement: 1 },
        ...(first ? { sendStartedAt: null, lastSendAt: null } : {}),
        nextCheckAt: new Date(Date.now() + 10_000),
      });
      return "unknown";
    }
    if (failure && !failure.outcomeUnknown && failure.status !== 429) {
      await markFailed(row, failure.code, failure.message, failure.correlationId ?? null);
      return "refused";
    }
    logger.warn("withdrawal: send outcome unknown; reading upstream withdrawals before anything else", {
      withdrawalRequestId: row.id,
      code: failure ? failure.code : "error",
      correlationId: failure ? failure.correlationId : undefined,
    });
    await db().withdrawalRequest.update({
      where: { id: row.id },
      data: { correlationId: failure ? (failure.correlationId ?? null) : null },
    });
    // Still holding the lease: resolve right away (a dropped answer is usually found now).
    await releaseWithdrawal(row.id, { nextCheckAt: new Date() });
    const outcome = await resolveSendingWithdrawal(row.id, { priority, actor });
    return outcome === "busy" ? "unknown" : outcome;
  }
}

/** The oldest upstream withdrawal that can be this request's lost answer, or null. */
export async function findUpstreamMatch(row: Row): Promise<Withdrawal | null> {
  const from = (row.sendStartedAt ?? row.lastSendAt ?? new Date()).getTime() - MATCH_SKEW_MS;
  const candidates: Withdrawal[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const { data } = await upstream().listWithdrawals(
      { status: "requested", limit: 100, cursor },
      { priority: "money", by: spentByJob("withdrawals-send") },
    );
    for (const w of data.items) {
      if (
        w.currency === row.currency &&
        toMinor(w.amount, w.currency) === row.amountMinor &&
        Date.parse(w.requestedAtUtc) >= from
      )
        candidates.push(w);
    }
    if (!data.hasMore || !data.nextCursor) break;
    cursor = data.nextCursor;
  }
  if (!candidates.length) return null;
  const taken = new Set(
    (
      await db().withdrawalRequest.findMany({
        where: { upstreamId: { in: candidates.map((c) => c.id) }, NOT: { id: row.id } },
        select: { upstreamId: true },
      })
    ).map((r) => r.upstreamId),
  );
  return (
    candidates.filter((c) => !taken.has(c.id)).sort((a, b) => Date.parse(a.requestedAtUtc) - Date.parse(b.requestedAtUtc))[0] ??
    null
  );
}

async function linkUpstream(
  row: Row,
  w: Withdrawal,
  correlationId: string | null,
  how: { matched: boolean; actor?: Actor | null },
): Promise<boolean> {
  const state = stateFromUpstream(w.status);
  assertWithdrawalMove(row.state, state);
  try {
    await db().$transaction(async (tx) => {
      await tx.withdrawalRequest.update({
        where: { id: row.id },
        data: {
          ...upstreamFields(w),
          state,
          correlationId: correlationId ?? row.correlationId,
          leaseUntil: null,
          nextCheckAt: null,
          failureCode: null,
          failureMessage: null,
        },
      });
      await recordAudit(tx, {
        action: "withdrawal.send",
        actor: how.actor ?? null,
        targetId: row.id,
        correlationId,
        details: {
          upstreamId: w.id,
          amount: minorToDecimal(row.amountMinor, row.currency),
          currency: row.currency,
          attempts: row.sendAttempts,
          foundAfterLostAnswer: how.matched,
          payoutDate: w.payoutDateUtc,
        },
      });
    });
    return true;
  } catch (error) {
    // Another request linked this upstream withdrawal first (unique upstreamId): look again later.
    if ((error as { code?: string }).code === "P2002") {
      await releaseWithdrawal(row.id, { nextCheckAt: new Date(Date.now() + 5_000) });
      return false;
    }
    throw error;
  }
}

async function markFailed(row: Row, code: string, message: string, correlationId: string | null): Promise<void> {
  assertWithdrawalMove(row.state, "failed");
  await db().$transaction(async (tx) => {
    await tx.withdrawalRequest.update({
      where: { id: row.id },
      data: { state: "failed", failureCode: code, failureMessage: message, correlationId, leaseUntil: null, nextCheckAt: null },
    });
    await recordAudit(tx, {
      action: "withdrawal.send_failed",
      targetId: row.id,
      correlationId,
      details: {
        reason: code,
        message,
        amount: minorToDecimal(row.amountMinor, row.currency),
        currency: row.currency,
        attempts: row.sendAttempts,
      },
    });
  });
}

export function stateFromUpstream(status: string): "requested" | "paid" | "cancelled" {
  const s = status.toLowerCase();
  return s === "paid" ? "paid" : s === "cancelled" || s === "canceled" ? "cancelled" : "requested";
}

export function upstreamFields(w: Withdrawal): Prisma.WithdrawalRequestUncheckedUpdateInput {
  return {
    upstreamId: w.id,
    upstreamStatus: w.status,
    upstreamRequestedAt: new Date(w.requestedAtUtc),
    payoutDate: new Date(w.payoutDateUtc),
    paidAt: w.paidAtUtc ? new Date(w.paidAtUtc) : null,
    cancelledAt: w.cancelledAtUtc ? new Date(w.cancelledAtUtc) : undefined,
    feeMinor: toMinor(w.fee, w.currency),
    netMinor: toMinor(w.netAmount, w.currency),
  };
}
