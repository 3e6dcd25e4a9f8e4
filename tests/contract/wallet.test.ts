import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type Json, type TestSandbox } from "./support/client";
import { expectRefused } from "./support/state";
import { startReceiver, type Receiver } from "./support/receiver";
import { waitFor } from "./support/wait";

let sb: TestSandbox;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  sb = await startTestSandbox({ wallet: { USD: 250.1, EUR: 99.99 }, webhookUrl: receiver.url });
});
afterAll(async () => {
  await sb.close();
  await receiver.close();
});

const cents = (n: number) => Math.round(n * 100);

describe("GET /wallet/balance", () => {
  it("reports available, reserved, pending-withdrawal and total balances per currency", async () => {
    const res = await sb.api("/wallet/balance?currency=EUR");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      currency: "EUR",
      availableBalance: 99.99,
      reservedBalance: 0,
      pendingWithdrawalBalance: 0,
      totalBalance: 99.99,
    });
  });

  it("lists every held currency without a currency parameter", async () => {
    const res = await sb.api("/wallet/balance");
    expect(res.body.items.map((b: Json) => b.currency)).toEqual(["EUR", "USD"]);
  });

  it("reports zero for a currency never held and 400 for a malformed code", async () => {
    expect((await sb.api("/wallet/balance?currency=JPY")).body).toMatchObject({
      currency: "JPY",
      availableBalance: 0,
      totalBalance: 0,
    });
    await expectRefused(sb, () => sb.api("/wallet/balance?currency=dollars"), 400, "invalid_request");
  });
});

describe("the BSC-USD deposit address", () => {
  it("does not exist until requested, then stays the same on every later request", async () => {
    await expectRefused(sb, () => sb.api("/wallet/deposit-addresses/bsc-usd"), 404, "not_found");
    const created = await sb.api("/wallet/deposit-addresses/bsc-usd", { method: "PUT" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ network: "BSC", asset: "BSC-USD", currency: "USD" });
    expect(created.body.address).toMatch(/^0x[0-9a-f]{40}$/);
    const again = await sb.api("/wallet/deposit-addresses/bsc-usd", { method: "PUT" });
    expect(again.status).toBe(200);
    expect(again.body.address).toBe(created.body.address);
    expect((await sb.api("/wallet/deposit-addresses/bsc-usd")).body.address).toBe(created.body.address);
    expect((await sb.api("/wallet/deposit-addresses")).body.items).toHaveLength(1);
  });

  it("offers no other network", async () => {
    await expectRefused(sb, () => sb.api("/wallet/deposit-addresses/eth-usdc", { method: "PUT" }), 404, "not_found");
  });

  it("needs wallet.deposit-address.write to request it", async () => {
    const { key } = (await sb.control("POST", "/keys", { scopes: ["wallet.read"] })).body;
    await expectRefused(sb, () => sb.api("/wallet/deposit-addresses/bsc-usd", { method: "PUT", key }), 403, "forbidden");
    expect((await sb.api("/wallet/deposit-addresses/bsc-usd", { key })).status).toBe(200);
  });
});

describe("deposits", () => {
  it("credit the wallet, appear in the history and fire wallet.credited with the balance after the credit", async () => {
    const address = (await sb.api("/wallet/deposit-addresses/bsc-usd", { method: "PUT" })).body.address;
    const before = (await sb.api("/wallet/balance?currency=USD")).body;
    const deposit = await sb.control("POST", "/deposits", { amount: 125.35 });
    expect(deposit.status).toBe(201);
    const after = (await sb.api("/wallet/balance?currency=USD")).body;
    expect(cents(after.availableBalance) - cents(before.availableBalance)).toBe(12_535);

    const history = (await sb.api("/wallet/deposits")).body;
    const row = history.items[0];
    expect(row).toMatchObject({
      amount: 125.35,
      currency: "USD",
      network: "BSC",
      asset: "BSC-USD",
      toAddress: address,
      status: "credited",
    });
    expect(row.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(row.confirmations).toBeGreaterThanOrEqual(15);
    expect(Date.parse(row.occurredAtUtc)).not.toBeNaN();

    const event = await waitFor(
      () => receiver.received.map((r) => JSON.parse(r.body)).find((e: Json) => e.type === "wallet.credited"),
      "wallet.credited",
    );
    expect(event.data).toEqual({
      amount: 125.35,
      currency: "USD",
      availableBalance: after.availableBalance,
      occurredAtUtc: row.occurredAtUtc,
    });
  });

  it("list newest first with cursor pages and a currency filter", async () => {
    for (const amount of [1, 2, 3]) await sb.control("POST", "/deposits", { amount });
    await sb.control("POST", "/deposits", { amount: 10, currency: "EUR" });
    const page = (await sb.api("/wallet/deposits?currency=USD&limit=2")).body;
    expect(page.items.map((d: Json) => d.amount)).toEqual([3, 2]);
    expect(page.hasMore).toBe(true);
    const next = (await sb.api(`/wallet/deposits?currency=USD&limit=2&cursor=${page.nextCursor}`)).body;
    expect(next.items.map((d: Json) => d.amount)).toEqual([1, 125.35]);
    const eur = (await sb.api("/wallet/deposits?currency=EUR")).body.items;
    expect(eur).toHaveLength(1);
    expect(eur[0]).toMatchObject({ rail: "bank-transfer", transactionHash: null });
    await sb.control("POST", "/deposits", { amount: 4, onChain: false });
    const [transfer] = (await sb.api("/wallet/deposits?currency=USD&limit=1")).body.items;
    expect(transfer).toMatchObject({ amount: 4, rail: "bank-transfer", transactionHash: null, toAddress: null });
  });

  it("rejects a malformed simulated deposit", async () => {
    const res = await expectRefused(sb, () => sb.control("POST", "/deposits", { amount: 0.001 }), 400, "invalid_request");
    expect(res.body.errors.amount).toBeDefined();
  });
});
