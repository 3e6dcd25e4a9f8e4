import "server-only";
import { randomBytes } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { spendRequestOfKey } from "@/lib/idempotency/keys";
import type { Settings } from "@/lib/settings/schema";
import { approvalReasons, type ApprovalReason, type SpendRules } from "./approval-reasons";
import { countedSpend, limitsFor } from "./spend-limits";
import { chargeSource } from "./spend-request-id";
import { thresholdMinor } from "./spend-window";

export type SpendAmount = { currency: string; amountMinor: bigint };

/**
 * Serializes one buyer's submissions: held until the transaction ends, so the count, the
 * decision and the charge it writes are one step. Two orders that each fit alone cannot
 * both pass when together they do not: the second one sees the first one's charge.
 */
export async function lockBuyerSpend(tx: Tx, staffId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`spend:${staffId}`}))`;
}

/**
 * Why this spend needs a second person's approval — every rule it passes (./approval-reasons.ts)
 * — or an empty list if it may be sent now: above the workspace threshold, above the per-order
 * limit, or past the day's or month's limit (UTC) counting what this buyer already placed, sent
 * or has awaiting approval, each once (./spend-limits.ts `countedSpend`). A bulk file is one
 * spend per currency. Call under `lockBuyerSpend`.
 */
export async function approvalNeeded(
  tx: Tx,
  staffId: string,
  amounts: SpendAmount[],
  settings: Settings,
  now = new Date(),
): Promise<ApprovalReason[]> {
  const reasons: ApprovalReason[] = [];
  for (const { currency, amountMinor } of amounts) {
    const limits = await limitsFor(tx, staffId, currency);
    const spent =
      limits && (limits.perDayMinor !== null || limits.perMonthMinor !== null)
        ? await countedSpend(tx, staffId, currency, now)
        : null;
    const period = (limitMinor: bigint | null | undefined, spentMinor: bigint | undefined) =>
      limitMinor == null || spentMinor === undefined ? null : { limitMinor, spentMinor };
    const rules: SpendRules = {
      currency,
      thresholdMinor: settings.spendApprovalAmount ? thresholdMinor(settings.spendApprovalAmount, currency) : null,
      perOrderMinor: limits?.perOrderMinor ?? null,
      day: period(limits?.perDayMinor, spent?.today),
      month: period(limits?.perMonthMinor, spent?.thisMonth),
    };
    reasons.push(...approvalReasons(rules, amountMinor));
  }
  return reasons;
}

/** Records spend against the buyer's limits (same transaction as the check). `source` names the intent. */
export async function chargeSpend(tx: Tx, staffId: string, source: string, amounts: SpendAmount[]): Promise<void> {
  for (const { currency, amountMinor } of amounts) {
    await tx.spendCharge.create({
      data: { id: `sc_${randomBytes(12).toString("base64url")}`, staffId, currency, amountMinor, source },
    });
  }
}

/** The intent was never bought (refused, rejected, expired): it stops counting. */
export async function releaseSpend(tx: Tx, source: string): Promise<void> {
  await tx.spendCharge.updateMany({ where: { source, state: "held" }, data: { state: "released" } });
}

/** The intent became an order: from now the order counts (./spend-limits.ts), the charge keeps its real total. */
export async function settleSpend(tx: Tx, source: string, currency: string, amountMinor: bigint): Promise<void> {
  await tx.spendCharge.updateMany({ where: { source, currency }, data: { state: "spent", amountMinor } });
}

/**
 * The order placed under `key` is being mirrored (call in that transaction), so the charge that
 * counted it until now stops counting in the same step: an approved request's (its key is
 * derived from the request: `spend:<id>`), else the order's own (`order:<key>`). A bulk row's
 * order needs nothing: its row stops counting once the order is mirrored.
 */
export async function settleOrderSpend(tx: Tx, key: string, currency: string, amountMinor: bigint): Promise<void> {
  const request = spendRequestOfKey(key);
  const source = request ? chargeSource({ id: request, kind: "order", bulkOrderId: null }) : `order:${key}`;
  await settleSpend(tx, source, currency, amountMinor);
}
