import { audit } from "./audit";
import { iso } from "./clock";
import type { Sandbox } from "./context";
import { newId } from "./ids";
import type { Authenticated } from "./keys";
import { roundDiv, toAmount } from "./money";
import { conflict, notFound } from "./problem";
import type { Withdrawal, Workspace } from "./state";
import { createReader, readAmount, readCurrency, rejectUnknown, requireObjectBody } from "./validate";
import { holdForWithdrawal, payOutWithdrawal, releaseWithdrawalHold } from "./wallet";

// Withdrawals pay own funds out to the payout details registered on the workspace (never a destination in
// the request). The amount is held from the available balance at request, released on cancellation and
// paid out once the sandbox clock reaches payoutDateUtc (one business day later).

export const MINIMUM_WITHDRAWAL_CENTS = 1000;
const FEE_MIN_CENTS = 100;
const FEE_BASIS_POINTS = 50n; // 0.5 %
const DAY_MS = 86_400_000;

export type WithdrawalTerms = { amountCents: number; currency: string; feeCents: number; payoutAtMs: number };

export function readWithdrawalBody(body: unknown): { amountCents: number; currency: string } {
  const obj = requireObjectBody(body);
  const r = createReader();
  rejectUnknown(r, obj, ["amount", "currency"]);
  const amountCents = readAmount(r, obj, "amount", "amount", { required: true, min: 1 });
  const currency = readCurrency(r, obj, "currency", "currency");
  if (amountCents !== undefined && amountCents < MINIMUM_WITHDRAWAL_CENTS)
    r.add("amount", `Must be at least ${MINIMUM_WITHDRAWAL_CENTS / 100}.`);
  r.fail();
  return { amountCents: amountCents ?? 0, currency: currency ?? "" };
}

// Same time of day on the next calendar day, moved past Saturday and Sunday (UTC).
export function payoutDate(requestedAtMs: number): number {
  let at = requestedAtMs + DAY_MS;
  while ([0, 6].includes(new Date(at).getUTCDay())) at += DAY_MS;
  return at;
}

export function withdrawalTerms(amountCents: number, currency: string, now: number): WithdrawalTerms {
  const feeCents = Math.max(FEE_MIN_CENTS, roundDiv(BigInt(amountCents) * FEE_BASIS_POINTS, 10_000n));
  return { amountCents, currency, feeCents, payoutAtMs: payoutDate(now) };
}

export function termsView(terms: WithdrawalTerms, availableCents: number): Record<string, unknown> {
  return {
    amount: toAmount(terms.amountCents),
    currency: terms.currency,
    fee: toAmount(terms.feeCents),
    netAmount: toAmount(terms.amountCents - terms.feeCents),
    payoutDateUtc: iso(terms.payoutAtMs),
    availableBalance: toAmount(availableCents),
    isCoveredByBalance: availableCents >= terms.amountCents,
  };
}

export function requestWithdrawal(sb: Sandbox, auth: Authenticated, body: unknown, correlationId: string): Withdrawal {
  const ws = auth.workspace;
  settleWithdrawals(sb, ws);
  const { amountCents, currency } = readWithdrawalBody(body);
  const now = sb.clock.now();
  const terms = withdrawalTerms(amountCents, currency, now);
  holdForWithdrawal(ws, currency, amountCents, now);
  ws.withdrawalSeq += 1;
  const withdrawal: Withdrawal = {
    id: newId("wdr"),
    seq: ws.withdrawalSeq,
    amountCents,
    feeCents: terms.feeCents,
    currency,
    status: "requested",
    requestedAtMs: now,
    payoutAtMs: terms.payoutAtMs,
    cancelledAtMs: null,
    paidAtMs: null,
    requestedByKeyId: auth.key.id,
  };
  ws.withdrawals.set(withdrawal.id, withdrawal);
  audit(sb, {
    workspaceId: ws.id,
    keyId: auth.key.id,
    action: "withdrawal.request",
    resourceId: withdrawal.id,
    correlationId,
    details: { amount: toAmount(amountCents), currency },
  });
  sb.changed();
  return withdrawal;
}

export function cancelWithdrawal(sb: Sandbox, auth: Authenticated, withdrawalId: string, correlationId: string): Withdrawal {
  const ws = auth.workspace;
  settleWithdrawals(sb, ws);
  const withdrawal = findWithdrawal(ws, withdrawalId);
  if (withdrawal.status === "cancelled") return withdrawal; // cancelling twice is harmless
  if (withdrawal.status === "paid")
    throw conflict("withdrawal_not_cancellable", "The withdrawal has already been paid.", { status: withdrawal.status });
  const now = sb.clock.now();
  releaseWithdrawalHold(ws, withdrawal.currency, withdrawal.amountCents, now);
  withdrawal.status = "cancelled";
  withdrawal.cancelledAtMs = now;
  audit(sb, { workspaceId: ws.id, keyId: auth.key.id, action: "withdrawal.cancel", resourceId: withdrawal.id, correlationId });
  sb.changed();
  return withdrawal;
}

export function findWithdrawal(ws: Workspace, withdrawalId: string): Withdrawal {
  const withdrawal = ws.withdrawals.get(withdrawalId);
  if (!withdrawal) throw notFound(`Withdrawal ${withdrawalId} does not exist in this workspace.`);
  return withdrawal;
}

// Pays out every requested withdrawal whose payout date the sandbox clock has reached. Called before any
// read or change of withdrawals or balances, so the state is always current without a background timer.
export function settleWithdrawals(sb: Sandbox, ws: Workspace): void {
  const now = sb.clock.now();
  for (const w of ws.withdrawals.values()) {
    if (w.status !== "requested" || w.payoutAtMs > now) continue;
    payOutWithdrawal(ws, w.currency, w.amountCents, w.payoutAtMs);
    w.status = "paid";
    w.paidAtMs = w.payoutAtMs;
    sb.changed();
  }
}

export function withdrawalView(w: Withdrawal): Record<string, unknown> {
  return {
    id: w.id,
    amount: toAmount(w.amountCents),
    currency: w.currency,
    fee: toAmount(w.feeCents),
    netAmount: toAmount(w.amountCents - w.feeCents),
    status: w.status,
    destination: "registered-payout-details",
    requestedAtUtc: iso(w.requestedAtMs),
    payoutDateUtc: iso(w.payoutAtMs),
    cancelledAtUtc: w.cancelledAtMs === null ? null : iso(w.cancelledAtMs),
    paidAtUtc: w.paidAtMs === null ? null : iso(w.paidAtMs),
  };
}
