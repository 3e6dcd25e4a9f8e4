import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { toMinor } from "@/lib/money";
import { setSpendLimit } from "@/lib/spend/set-spend-limit";
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

/** Spend recorded earlier (e.g. yesterday 23:59:59.999 UTC), as an order placed then would have left it. */
export async function pastSpend(staffId: string, amountMinor: bigint, chargedAt: Date, currency = "USD") {
  await db().spendCharge.create({
    data: {
      id: `sc_test_${randomUUID()}`,
      staffId,
      currency,
      amountMinor,
      source: `test:${randomUUID()}`,
      state: "spent",
      chargedAt,
    },
  });
}
