import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type Json, type TestSandbox } from "./support/client";
import { expectRefused } from "./support/state";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ wallet: { USD: 1000 } });
});
afterAll(() => sb.close());

const cents = (n: number) => Math.round(n * 100);
const usd = async () => (await sb.api("/wallet/balance?currency=USD")).body;
const withdraw = (body: Json) => sb.api("/withdrawals", { body });
const DAY = 86_400_000;

// Moves the sandbox clock forward to the next given weekday (0 = Sunday) at 10:00 UTC.
async function advanceToWeekday(day: number): Promise<number> {
  const now = Date.parse((await sb.control("GET", "/clock")).body.nowUtc);
  let target = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate(), 10);
  while (target <= now || new Date(target).getUTCDay() !== day) target += DAY;
  await sb.control("POST", "/clock/advance", { seconds: (target - now) / 1000 });
  return target;
}

describe("POST /withdrawals/quotes", () => {
  it("states fee, net amount and payout date without holding anything", async () => {
    const before = await usd();
    const res = await sb.api("/withdrawals/quotes", { body: { amount: 200, currency: "USD" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ amount: 200, currency: "USD", fee: 1, netAmount: 199 });
    expect(cents(res.body.fee) + cents(res.body.netAmount)).toBe(20_000);
    expect(Date.parse(res.body.payoutDateUtc)).toBeGreaterThan(Date.now());
    expect((await usd()).availableBalance).toBe(before.availableBalance);
  });

  it("charges 0.5 % above the 1.00 minimum fee", async () => {
    expect((await sb.api("/withdrawals/quotes", { body: { amount: 1000, currency: "USD" } })).body).toMatchObject({
      fee: 5,
      netAmount: 995,
    });
  });

  it.each([
    ["no amount", { currency: "USD" }, "amount"],
    ["an amount as a string", { amount: "100", currency: "USD" }, "amount"],
    ["three decimals", { amount: 100.001, currency: "USD" }, "amount"],
    ["a negative amount", { amount: -5, currency: "USD" }, "amount"],
    ["an amount below the minimum", { amount: 5, currency: "USD" }, "amount"],
    ["no currency", { amount: 100 }, "currency"],
    [
      "a destination (funds only go to registered payout details)",
      { amount: 100, currency: "USD", destination: "IBAN" },
      "destination",
    ],
  ])("rejects %s with 400 invalid_request", async (_name, body, field) => {
    for (const path of ["/withdrawals/quotes", "/withdrawals"]) {
      const res = await expectRefused(sb, () => sb.api(path, { body }), 400, "invalid_request");
      expect(res.body.errors[field]).toBeDefined();
    }
  });
});

describe("POST /withdrawals", () => {
  it("holds the amount from the available balance and shows up under status=requested", async () => {
    const before = await usd();
    const res = await withdraw({ amount: 100.5, currency: "USD" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount: 100.5, currency: "USD", status: "requested", fee: 1, netAmount: 99.5 });
    expect(res.body.id).toEqual(expect.any(String));
    expect(Date.parse(res.body.payoutDateUtc)).toBeGreaterThan(Date.parse(res.body.requestedAtUtc));
    const after = await usd();
    expect(cents(before.availableBalance) - cents(after.availableBalance)).toBe(10_050);
    expect(cents(after.pendingWithdrawalBalance) - cents(before.pendingWithdrawalBalance)).toBe(10_050);
    expect(after.totalBalance).toBe(before.totalBalance);
    const listed = (await sb.api("/withdrawals?status=requested")).body.items;
    expect(listed[0].id).toBe(res.body.id);
  });

  it("refuses a withdrawal above the available balance with 409 withdrawal_above_balance", async () => {
    const { availableBalance } = await usd();
    await expectRefused(
      sb,
      () => withdraw({ amount: availableBalance + 0.01, currency: "USD" }),
      409,
      "withdrawal_above_balance",
    );
    await expectRefused(sb, () => withdraw({ amount: 50, currency: "CHF" }), 409, "withdrawal_above_balance");
    // A currency the wallet never held: refused, and no empty JPY row appears in the balance list.
    await expectRefused(sb, () => withdraw({ amount: 50, currency: "JPY" }), 409, "withdrawal_above_balance");
    expect((await sb.api("/wallet/balance")).body.items.map((b: Json) => b.currency)).not.toContain("JPY");
  });

  it("cancels until paid, releasing the hold; cancelling twice is harmless", async () => {
    const before = await usd();
    const created = (await withdraw({ amount: 40, currency: "USD" })).body;
    const cancelled = await sb.api(`/withdrawals/${created.id}/cancellation`, { method: "POST" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: created.id, status: "cancelled" });
    expect((await usd()).availableBalance).toBe(before.availableBalance);
    expect((await sb.api(`/withdrawals/${created.id}/cancellation`, { method: "POST" })).body.status).toBe("cancelled");
    expect((await sb.api("/withdrawals?status=cancelled")).body.items.map((w: Json) => w.id)).toContain(created.id);
  });

  it("pays out after one business day on the sandbox clock (Friday → Monday), and then cannot be cancelled", async () => {
    const friday = await advanceToWeekday(5);
    const created = (await withdraw({ amount: 20, currency: "USD" })).body;
    expect(Date.parse(created.requestedAtUtc)).toBeGreaterThanOrEqual(friday);
    const payout = new Date(created.payoutDateUtc);
    expect(payout.getUTCDay()).toBe(1);
    expect(payout.getTime() - Date.parse(created.requestedAtUtc)).toBe(3 * DAY);
    await sb.control("POST", "/clock/advance", { seconds: 2 * 86_400 }); // Sunday: still held
    expect((await sb.api(`/withdrawals/${created.id}`)).body.status).toBe("requested");
    await sb.control("POST", "/clock/advance", { seconds: 86_400 + 1 });
    const paid = (await sb.api(`/withdrawals/${created.id}`)).body;
    expect(paid).toMatchObject({ status: "paid", paidAtUtc: created.payoutDateUtc });
    const stillHeld = (await sb.api("/withdrawals?status=requested")).body.items.reduce(
      (sum: number, w: Json) => sum + cents(w.amount),
      0,
    );
    expect(cents((await usd()).pendingWithdrawalBalance)).toBe(stillHeld);
    await expectRefused(
      sb,
      () => sb.api(`/withdrawals/${created.id}/cancellation`, { method: "POST" }),
      409,
      "withdrawal_not_cancellable",
    );
    expect((await sb.api("/withdrawals?status=paid")).body.items.map((w: Json) => w.id)).toContain(created.id);
  });

  it("holds a Tuesday request until Wednesday", async () => {
    await advanceToWeekday(2);
    const created = (await withdraw({ amount: 15, currency: "USD" })).body;
    expect(Date.parse(created.payoutDateUtc) - Date.parse(created.requestedAtUtc)).toBe(DAY);
  });
});

describe("GET /withdrawals", () => {
  it("lists newest first with cursor pages", async () => {
    const all = (await sb.api("/withdrawals")).body.items;
    const times = all.map((w: Json) => Date.parse(w.requestedAtUtc));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const page = (await sb.api("/withdrawals?limit=1")).body;
    expect(page.items[0].id).toBe(all[0].id);
    const next = (await sb.api(`/withdrawals?limit=1&cursor=${page.nextCursor}`)).body;
    expect(next.items[0].id).toBe(all[1].id);
  });

  it("rejects an unknown status filter and answers 404 for an unknown withdrawal", async () => {
    await expectRefused(sb, () => sb.api("/withdrawals?status=pending"), 400, "invalid_request");
    await expectRefused(sb, () => sb.api("/withdrawals/wdr_nope"), 404, "not_found");
    await expectRefused(sb, () => sb.api("/withdrawals/wdr_nope/cancellation", { method: "POST" }), 404, "not_found");
  });
});
