import { describe, expect, test } from "vitest";
import { z } from "zod";
import { amountProblem, currencyDecimalsProblem, numberAmountProblem, toMinor } from "@/lib/money";
import { moneyAmount, moneyNumber, refineCurrencyDecimals } from "@/lib/validation";
import { readRowInput } from "@/lib/bulk-orders/row-input";
import { placeOrderSchema } from "@/lib/orders/schemas";

const messageOf = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message ?? null;

describe("one rule for every money amount a client gives", () => {
  test("typed amounts: plain, bounded, above zero, at most the decimals allowed", () => {
    const amount = moneyAmount();
    expect(amount.parse(" 250.50 ")).toBe("250.50");
    expect(amount.parse("999999999999.99")).toBe("999999999999.99");
    expect(messageOf(amount, "1e308")).toMatch(/plain number/);
    expect(messageOf(amount, "NaN")).toMatch(/plain number/);
    expect(messageOf(amount, "Infinity")).toMatch(/plain number/);
    expect(messageOf(amount, "1,000")).toMatch(/plain number/);
    expect(messageOf(amount, "-1")).toBe("Enter an amount above zero.");
    expect(messageOf(amount, "0.00")).toBe("Enter an amount above zero.");
    expect(messageOf(amount, "12.345")).toBe("Use at most 2 decimals.");
    expect(messageOf(amount, "1000000000000")).toBe("Enter an amount below 1,000,000,000,000.");
    expect(messageOf(amount, "9".repeat(400))).toBe("Enter an amount below 1,000,000,000,000.");
    expect(messageOf(amount, 12)).toBe("Enter an amount.");
    // Leading zeros are not digits of the amount; zero may be allowed where it means something.
    expect(amountProblem("000000000000001", {})).toBeNull();
    expect(amountProblem("0", { allowZero: true })).toBeNull();
    expect(amountProblem("-0.5", { allowZero: true })).toBe("Enter zero or more.");
  });

  test("amounts sent as JSON numbers: finite, bounded, above zero, at most the decimals allowed", () => {
    const amount = moneyNumber({ maxDecimals: 3 });
    expect(amount.parse(12.5)).toBe(12.5);
    expect(messageOf(amount, 1e308)).toBe("Enter an amount below 1,000,000,000,000.");
    expect(messageOf(amount, 1e12)).toBe("Enter an amount below 1,000,000,000,000.");
    expect(messageOf(amount, Infinity)).not.toBeNull();
    expect(messageOf(amount, NaN)).not.toBeNull();
    expect(messageOf(amount, "NaN")).toBe("Enter an amount as a number.");
    expect(messageOf(amount, -1)).toBe("Enter an amount above zero.");
    expect(messageOf(amount, 0)).toBe("Enter an amount above zero.");
    expect(messageOf(amount, 1.2345)).toBe("Use at most 3 decimals.");
    expect(messageOf(amount, 1e-7)).toBe("Use at most 3 decimals.");
    expect(numberAmountProblem(0.1 + 0.2, {})).toBe("Use at most 2 decimals.");
  });

  test("where the currency is known, an amount has at most its decimals", () => {
    expect(currencyDecimalsProblem("100.5", "JPY")).toBe("JPY has no decimals.");
    expect(currencyDecimalsProblem(12.345, "USD")).toBe("USD allows at most 2 decimals.");
    expect(currencyDecimalsProblem("1.234", "KWD")).toBeNull();
    const schema = z
      .object({ amount: moneyAmount({ maxDecimals: 3 }), currency: z.string() })
      .superRefine(refineCurrencyDecimals((v) => v.currency, { amount: (v) => v.amount }));
    expect(schema.safeParse({ amount: "100.5", currency: "JPY" }).error?.issues[0]).toMatchObject({
      path: ["amount"],
      message: "JPY has no decimals.",
    });
  });

  test("an order's maximum total and face value follow it", () => {
    const order = (extra: Record<string, unknown>, item: Record<string, unknown> = {}) => ({
      idempotencyKey: "k-1",
      clientReference: "r",
      item: { productId: "p", variantId: "v", quantity: 1, currency: "USD", ...item },
      ...extra,
    });
    const pathsOf = (input: unknown) => placeOrderSchema.safeParse(input).error?.issues.map((i) => i.path.join("."));
    for (const bad of [1e308, -1, 0, 12.345, 1e12]) expect(pathsOf(order({ maximumTotal: bad }))).toEqual(["maximumTotal"]);
    expect(pathsOf(order({ maximumTotal: "NaN" }))).toEqual(["maximumTotal"]);
    expect(pathsOf(order({ maximumTotal: 12.5 }, { currency: "JPY" }))).toEqual(["maximumTotal"]);
    expect(pathsOf(order({ maximumTotal: 12.34 }))).toBeUndefined();
    for (const bad of [1e308, -1, 1.0000001]) expect(pathsOf(order({}, { variantId: null, value: bad }))).toEqual(["item.value"]);
  });

  test("a bulk file's value cells follow it", () => {
    const cells = (value: string) =>
      readRowInput({ productId: "p", variantId: "", value, quantity: "1", clientReference: "r", phoneNumber: "" }).errors.value;
    expect(cells("25.5")).toBeUndefined();
    expect(cells("1e308")?.[0]).toMatch(/plain number/);
    expect(cells("NaN")?.[0]).toMatch(/plain number/);
    expect(cells("-1")).toEqual(["Enter an amount above zero."]);
    expect(cells("1.1234567")).toEqual(["Use at most 6 decimals."]);
    expect(cells("9999999999999")).toEqual(["Enter an amount below 1,000,000,000,000."]);
  });

  test("conversion to minor units refuses an amount beyond exact integers instead of crashing in BigInt", () => {
    expect(() => toMinor(1e308, "USD")).toThrow(RangeError);
    expect(() => toMinor(1e308, "USD")).toThrow(/too large/);
  });
});
