import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { problemFromError } from "@/lib/http/problem";
import { getQuote } from "@/lib/orders/get-quote";
import { submitOrder } from "@/lib/orders/place-order";
import { getSettings } from "@/lib/settings/get-settings";
import { updateSettings } from "@/lib/settings/update-settings";
import { setSpendLimit } from "@/lib/spend/set-spend-limit";
import { quoteWithdrawal } from "@/lib/withdrawals/quote-withdrawal";
import { requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { control } from "../support/sandbox";
import { limitedBuyer, orderOf, priceMinor, upstreamCount, type Product } from "../support/spend";

/**
 * Issue 37: an amount from a client is bounded before any arithmetic, by the one rule of
 * lib/money.ts. A bad one is a 400 problem document with a field error and changes nothing.
 */
let product: Product;

beforeAll(async () => {
  await control("PUT", "/wallet", { balances: { USD: 1_000_000 } });
  product = await variantProduct();
});

async function fieldError(promise: Promise<unknown>, field: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "refused").not.toBeNull();
  const answer = problemFromError(error);
  expect(answer.status).toBe(400);
  const body = (await answer.json()) as { code: string; errors?: Record<string, string[]> };
  expect(body.code).toBe("invalid_request");
  expect(Object.keys(body.errors ?? {})).toContain(field);
  return body.errors![field]![0]!;
}

describe("money amounts from a client are bounded before any arithmetic", () => {
  test("an order's maximumTotal of 1e308 under a spend limit is a field error, not a 500, and nothing is recorded or sent", async () => {
    const buyer = await limitedBuyer({ perOrder: priceMinor(product) * 10n });
    const cases: [unknown, RegExp][] = [
      [1e308, /below 1,000,000,000,000/],
      [-1, /above zero/],
      ["NaN", /number/],
      [12.345, /USD allows at most 2 decimals/],
      [5e15, /below 1,000,000,000,000/],
    ];
    for (const [maximumTotal, message] of cases) {
      const input = orderOf(product, `bounded-${randomUUID().slice(0, 8)}`, { maximumTotal });
      expect(await fieldError(submitOrder(buyer, input), "maximumTotal")).toMatch(message);
      expect(await upstreamCount(input.clientReference)).toBe(0);
    }
    expect(await db().spendCharge.count({ where: { staffId: buyer.staffId } })).toBe(0);
    expect(await db().spendRequest.count({ where: { requestedById: buyer.staffId } })).toBe(0);
    expect(await db().idempotencyKey.count({ where: { staffId: buyer.staffId } })).toBe(0);
  });

  test("a face value of 1e308 is a field error for a quote and for an order", async () => {
    const buyer = await makeStaff(["buyer"]);
    const quote = { productId: product.id, value: 1e308, quantity: 1, currency: "USD" };
    expect(await fieldError(getQuote(buyer, quote), "value")).toMatch(/below 1,000,000,000,000/);
    expect(await fieldError(getQuote(buyer, { ...quote, value: -1 }), "value")).toMatch(/above zero/);
    const order = orderOf(product);
    const input = { ...order, item: { ...order.item, variantId: null, value: 1e308 } };
    expect(await fieldError(submitOrder(buyer, input), "item.value")).toMatch(/below 1,000,000,000,000/);
  });

  test("spend limits: huge, negative, NaN-like and over-precise amounts are field errors and store nothing", async () => {
    const [admin, buyer] = await Promise.all([makeStaff(["admin"]), makeStaff(["buyer"])]);
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ perOrder: "1e308" }, "perOrder", /plain number/],
      [{ perDay: "-1" }, "perDay", /above zero/],
      [{ perMonth: "NaN" }, "perMonth", /plain number/],
      [{ perOrder: "12.345" }, "perOrder", /USD allows at most 2 decimals/],
      [{ perOrder: "99999999999999999999" }, "perOrder", /below 1,000,000,000,000/],
      [{ perOrder: "0" }, "perOrder", /above zero/],
    ];
    for (const [limits, field, message] of cases)
      expect(await fieldError(setSpendLimit(admin, { scope: buyer.staffId, currency: "USD", ...limits }), field)).toMatch(
        message,
      );
    expect(await fieldError(setSpendLimit(admin, { scope: buyer.staffId, currency: "JPY", perOrder: "100.5" }), "perOrder")).toBe(
      "JPY has no decimals.",
    );
    expect(await db().spendLimit.count({ where: { scope: buyer.staffId } })).toBe(0);
  });

  test("settings amounts (the approval threshold among them) are bounded and change nothing when refused", async () => {
    const admin = await makeStaff(["admin"]);
    const before = await getSettings();
    const cases: [Record<string, unknown>, string][] = [
      [{ spendApprovalAmount: "1e308" }, "spendApprovalAmount"],
      [{ spendApprovalAmount: "-1" }, "spendApprovalAmount"],
      [{ spendApprovalAmount: "NaN" }, "spendApprovalAmount"],
      [{ spendApprovalAmount: "10.001" }, "spendApprovalAmount"],
      [{ spendApprovalAmount: "1000000000000" }, "spendApprovalAmount"],
      [{ orderConfirmationAmount: "Infinity" }, "orderConfirmationAmount"],
      [{ lowBalance: { USD: "9999999999999" } }, "lowBalance.USD"],
      [{ lowBalance: { JPY: "1000.5" } }, "lowBalance.JPY"],
    ];
    for (const [input, field] of cases) await fieldError(updateSettings(admin, input), field);
    expect(await getSettings()).toEqual(before);
  });

  test("withdrawal amounts are bounded before any quote is asked", async () => {
    const finance = await makeStaff(["finance"]);
    const reason = "Monthly payout to the bank";
    for (const amount of ["1e308", "-1", "NaN", "10.001", "1000000000000"]) {
      await fieldError(quoteWithdrawal(finance, { amount, currency: "USD" }), "amount");
      await fieldError(requestWithdrawal(finance, { amount, currency: "USD", reason }), "amount");
    }
    expect(await db().withdrawalRequest.count({ where: { requestedById: finance.staffId } })).toBe(0);
  });
});
