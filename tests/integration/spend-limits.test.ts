import { beforeAll, describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { clientOrderKey } from "@/lib/idempotency/keys";
import { isAppError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { placeOrder, submitOrder } from "@/lib/orders/place-order";
import { getRemainingSpend } from "@/lib/spend/get-remaining-spend";
import { setSpendLimit } from "@/lib/spend/set-spend-limit";
import { utcDayStart, utcMonthStart } from "@/lib/spend/spend-window";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { control } from "../support/sandbox";
import { decimal, limitedBuyer, orderOf, pastSpend, priceMinor, upstreamCount, type Product } from "../support/spend";

let product: Product;
let p: bigint;

beforeAll(async () => {
  await control("PUT", "/wallet", { balances: { USD: 1_000_000 } });
  product = await variantProduct();
  p = priceMinor(product);
});

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isAppError(error), String(error)).toBe(true);
  return error as { code: string; status?: number; fieldErrors?: Record<string, string[]> };
}

describe("spend limits per buyer and currency", () => {
  test("a buyer without limits and with no threshold orders exactly as before (nothing counted, nothing held)", async () => {
    const buyer = await makeStaff(["buyer"]);
    const input = orderOf(product);
    const { order } = await placeOrder(buyer, input);
    expect(order.clientReference).toBe(input.clientReference);
    expect(await db().spendCharge.count({ where: { staffId: buyer.staffId } })).toBe(0);
    const ledger = await db().idempotencyKey.findUniqueOrThrow({
      where: { key: clientOrderKey(buyer.staffId, input.idempotencyKey) },
    });
    expect(ledger.requestBody).not.toHaveProperty("maximumTotal");
  });

  test("a limit set mid-month counts what the buyer placed before it, without a charge", async () => {
    const [admin, buyer] = await Promise.all([makeStaff(["admin"]), makeStaff(["buyer"])]);
    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed");
    expect(await db().spendCharge.count({ where: { staffId: buyer.staffId } })).toBe(0);

    await setSpendLimit(admin, {
      scope: buyer.staffId,
      currency: "USD",
      perOrder: "",
      perDay: "",
      perMonth: decimal(p + p / 2n),
    });
    expect((await getRemainingSpend(buyer, "USD")).leftThisMonth).toBe(decimal(p / 2n));
    const next = orderOf(product);
    expect((await refusal(submitOrder(buyer, next))).code).toBe("approval_required");
    expect(await upstreamCount(next.clientReference)).toBe(0);
  });

  test("an order above the per-order limit is not sent; a limit in another currency does not apply", async () => {
    const buyer = await limitedBuyer({ perOrder: p - 1n });
    const input = orderOf(product);
    const error = await refusal(submitOrder(buyer, input));
    expect(error).toMatchObject({ code: "approval_required", status: 409 });
    expect(error.fieldErrors?.approvalReason).toBeTruthy();
    expect(await upstreamCount(input.clientReference)).toBe(0);

    const euroOnly = await limitedBuyer({ perOrder: 1n }, "EUR");
    const ok = await submitOrder(euroOnly, orderOf(product));
    expect(ok.kind).toBe("placed");
  });

  test("an order past two limits is held for both reasons: the 409 and the stored request name each, in one sentence", async () => {
    const buyer = await limitedBuyer({ perOrder: p - 1n, perDay: p - 1n });
    const input = orderOf(product);
    const money = (minor: bigint) => formatMoney(minor, "USD");
    const why =
      `its total of ${money(p)} is above the limit of ${money(p - 1n)} per order, and ` +
      `it is above the daily limit of ${money(p - 1n)}`;
    const error = await refusal(submitOrder(buyer, input));
    expect(error).toMatchObject({
      code: "approval_required",
      message: `This order needs approval because ${why}. An approver must agree before it is placed: say why it is needed.`,
    });
    expect(await submitOrder(buyer, { ...input, approvalReason: "Launch gifts" })).toMatchObject({ kind: "awaiting" });
    const stored = await db().spendRequest.findFirstOrThrow({ where: { requestedById: buyer.staffId } });
    expect(stored.why).toBe(why);
  });

  test("the daily limit counts what the buyer already placed today; the rest goes to approval with a reason", async () => {
    const buyer = await limitedBuyer({ perDay: p * 2n + p / 2n });
    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed");
    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed");
    expect((await getRemainingSpend(buyer, "USD")).leftToday).toBe(decimal(p / 2n));

    const third = orderOf(product);
    expect((await refusal(submitOrder(buyer, third))).code).toBe("approval_required");
    const held = await submitOrder(buyer, { ...third, approvalReason: "Customer escalation" });
    expect(held.kind).toBe("awaiting");
    // The same submission again (double click) finds the same request.
    expect(await submitOrder(buyer, { ...third, approvalReason: "Customer escalation" })).toEqual(held);
    expect(await upstreamCount(third.clientReference)).toBe(0);
    expect(await db().spendRequest.count({ where: { requestedById: buyer.staffId } })).toBe(1);
  });

  test("the day is the UTC calendar day: spend at 23:59:59.999 UTC yesterday does not count, at 00:00 UTC today it does", async () => {
    const now = new Date();
    const buyer = await limitedBuyer({ perDay: p + p / 2n });
    await pastSpend(buyer.staffId, p * 100n, new Date(utcDayStart(now).getTime() - 1));
    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed");

    const other = await limitedBuyer({ perDay: p + p / 2n });
    await pastSpend(other.staffId, p / 2n + 1n, utcDayStart(now));
    expect((await refusal(submitOrder(other, orderOf(product)))).code).toBe("approval_required");
  });

  test("the month is the UTC calendar month: spend before its first instant does not count, from it on it does", async () => {
    const now = new Date();
    const buyer = await limitedBuyer({ perMonth: p + p / 2n });
    await pastSpend(buyer.staffId, p * 100n, new Date(utcMonthStart(now).getTime() - 1));
    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed");
    await pastSpend(buyer.staffId, 1n, utcMonthStart(now));
    // p (placed) + 1 (at the month's first instant) + p > 1.5 p
    expect((await refusal(submitOrder(buyer, orderOf(product)))).code).toBe("approval_required");
  });

  test("two orders that fit alone but not together, submitted at once: one is placed, the other waits for approval", async () => {
    const buyer = await limitedBuyer({ perDay: p + p / 2n });
    const inputs = [
      orderOf(product, undefined, { approvalReason: "Restock" }),
      orderOf(product, undefined, { approvalReason: "Restock" }),
    ];
    const results = await Promise.all(inputs.map((input) => submitOrder(buyer, input)));
    expect(results.map((r) => r.kind).sort()).toEqual(["awaiting", "placed"]);
    const counts = await Promise.all(inputs.map((i) => upstreamCount(i.clientReference)));
    expect(counts.sort()).toEqual([0, 1]);
  });

  test("an order refused upstream stops counting against the limit", async () => {
    const buyer = await limitedBuyer({ perDay: p + p / 2n });
    await control("PUT", `/products/${product.id}`, { isAvailable: false });
    try {
      await refusal(submitOrder(buyer, orderOf(product, undefined, { maximumTotal: Number(decimal(p)) })));
    } finally {
      await control("PUT", `/products/${product.id}`, { isAvailable: true });
    }
    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed");
  });
});
