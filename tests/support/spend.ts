import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { parseMinor, toMinor } from "@/lib/money";
import type { Actor } from "@/lib/auth/actor";
import { readSettings } from "@/lib/settings/get-settings";
import { approvalNeeded, lockBuyerSpend } from "@/lib/spend/check-spend";
import { getRemainingSpend } from "@/lib/spend/get-remaining-spend";
import { listSpendRequests } from "@/lib/spend/list-spend-requests";
import { setSpendLimit } from "@/lib/spend/set-spend-limit";
import { limitsFor } from "@/lib/spend/spend-limits";
import { variantProduct } from "./catalog";
import { makeStaff } from "./db";
import { upstreamGet } from "./sandbox";

export type Product = Awaited<ReturnType<typeof variantProduct>>;

export async function upstreamCount(clientReference: string): Promise<number> {
  return (await upstreamGet<{ items: unknown[] }>(`/orders?clientReference=${encodeURIComponent(clientReference)}&limit=100`))
    .items.length;
}

/** One unit of the product's first variant, priced inline (the server prices it for the spend check). */
export function orderOf(product: Product, reference = `spend-${randomUUID().slice(0, 8)}`, extra: Record<string, unknown> = {}) {
  return {
    idempotencyKey: randomUUID(),
    clientReference: reference,
    item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: product.currency },
    ...extra,
  };
}

/** The product's unit price in minor units. */
export const priceMinor = (product: Product) => toMinor(product.variants[0].price, product.currency);

/** "12.34" from minor units (limits are typed as decimals). */
export const decimal = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`;

export async function limitedBuyer(limits: { perOrder?: bigint; perDay?: bigint; perMonth?: bigint }, currency = "USD") {
  const [admin, buyer] = await Promise.all([makeStaff(["admin"]), makeStaff(["buyer"])]);
  await setSpendLimit(admin, {
    scope: buyer.staffId,
    currency,
    perOrder: limits.perOrder !== undefined ? decimal(limits.perOrder) : "",
    perDay: limits.perDay !== undefined ? decimal(limits.perDay) : "",
    perMonth: limits.perMonth !== undefined ? decimal(limits.perMonth) : "",
  });
  return buyer;
}

/**
 * An order the buyer placed earlier (e.g. yesterday 23:59:59.999 UTC), as the mirror keeps it: what
 * a limit counts. Left reserved and never re-read (no next check), so no job or other figure takes it up.
 */
export async function pastSpend(staffId: string, amountMinor: bigint, at: Date, currency = "USD") {
  await db().order.create({
    data: {
      id: `ord_past_${randomUUID()}`,
      clientReference: `past-${randomUUID().slice(0, 8)}`,
      status: "reserved",
      totalMinor: amountMinor,
      currency,
      lines: [],
      upstreamCreatedAt: at,
      upstreamUpdatedAt: at,
      placedById: staffId,
      createdAt: at,
    },
  });
}

/**
 * What a buyer's limits count besides one waiting request of theirs (`probe`), as each reader
 * shows it: the order form's "left" today and this month, an approver's card "so far" beside
 * the probe, and the limit check (an order of exactly what is left today passes, a cent more
 * needs approval; the threshold left out, so that only the limits decide).
 */
export async function countedBesides(
  buyer: Actor,
  approver: Actor,
  probe: { id: string; amountMinor: bigint },
  currency = "USD",
) {
  const limits = await limitsFor(db(), buyer.staffId, currency);
  if (limits?.perDayMinor == null || limits.perMonthMinor == null) throw new Error("the buyer needs a daily and a monthly limit");
  const left = await getRemainingSpend(buyer, currency);
  const card = (await listSpendRequests(approver))
    .find((r) => r.id === probe.id)
    ?.facts?.spend.find((s) => s.currency === currency);
  if (!card) throw new Error("the probe is not waiting");
  const leftToday = parseMinor(left.leftToday!, currency);
  const settings = { ...(await readSettings()), spendApprovalAmount: "" };
  const check = (amountMinor: bigint) =>
    db().$transaction(async (tx) => {
      await lockBuyerSpend(tx, buyer.staffId);
      return (await approvalNeeded(tx, buyer.staffId, [{ currency, amountMinor }], settings)).length === 0;
    });
  return {
    form: {
      today: decimal(limits.perDayMinor - leftToday - probe.amountMinor),
      month: decimal(limits.perMonthMinor - parseMinor(left.leftThisMonth!, currency) - probe.amountMinor),
    },
    card: { today: card.today.spent, month: card.month.spent },
    check: { exactlyLeftPasses: await check(leftToday), aCentMorePasses: await check(leftToday + 1n) },
  };
}

/** What `countedBesides` reads when every reader counts `minor` once. */
export const countedOnce = (minor: bigint) => ({
  form: { today: decimal(minor), month: decimal(minor) },
  card: { today: decimal(minor), month: decimal(minor) },
  check: { exactlyLeftPasses: true, aCentMorePasses: false },
});
