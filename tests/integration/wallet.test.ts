import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db/client";
import { problemFromError } from "@/lib/http/problem";
import { getSettings } from "@/lib/settings/get-settings";
import { updateSettings } from "@/lib/settings/update-settings";
import { upstream } from "@/lib/upstream/service";
import { processEvent } from "@/lib/webhooks/process-event";
import { getBalanceHistory } from "@/lib/wallet/get-balance-history";
import { getLowBalanceWarning } from "@/lib/wallet/get-low-balance-warning";
import { getWalletOverview } from "@/lib/wallet/get-wallet-overview";
import { getDepositAddress } from "@/lib/wallet/deposit-address";
import { listCredits } from "@/lib/wallet/list-credits";
import { listDeposits } from "@/lib/wallet/list-deposits";
import { requestDepositAddress } from "@/lib/wallet/request-deposit-address";
import { recordBalanceReads } from "@/lib/wallet/record-balance-read";
import { submitOrder } from "@/lib/orders/place-order";
import { mirrorOrder } from "@/lib/orders/mirror";
import { REREAD_FLOOR_MS } from "@/lib/wallet/balance-freshness";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { orderOf } from "../support/spend";
import { control, upstreamGet } from "../support/sandbox";
import { deliver, delivery, envelope, headerId, type Envelope } from "./webhook-support";

type UpstreamBalance = { currency: string; availableBalance: number };
type SandboxDeposit = { id: string; amount: number; transactionHash: string };
const statusOf = (error: unknown) => problemFromError(error).status;
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
/** A deposit amount no other test uses, in cents. */
const uniqueCents = () => 10_000 + Math.floor(Math.random() * 900_000);

async function simulateDeposit(cents: number, currency = "USD"): Promise<SandboxDeposit> {
  return (await control("POST", "/deposits", { amount: cents / 100, currency })) as SandboxDeposit;
}

/** The upstream's own wallet.credited event for a deposit, received through our webhook route and processed. */
async function receiveCreditFor(cents: number): Promise<string> {
  const events = (await control("GET", "/events?type=wallet.credited")) as { items: { envelope: Envelope }[] };
  const event = events.items
    .map((e) => e.envelope)
    .reverse()
    .find((e) => Math.round(Number(e.data?.amount) * 100) === cents);
  if (!event) throw new Error(`no wallet.credited event for ${cents} cents`);
  return receive(event);
}

async function receive(event: Envelope): Promise<string> {
  expect((await deliver(delivery(event))).status).toBe(200);
  expect((await processEvent(headerId(event))).outcome).toBe("processed");
  return headerId(event);
}

const originalLowBalance = (await getSettings()).lowBalance;
afterAll(async () => {
  await updateSettings(await makeStaff(["admin"]), { lowBalance: originalLowBalance });
});

describe("recorded balance reads (the chart's anchors)", () => {
  test("an unchanged balance is recorded again only after 5 minutes; a changed one at once, per currency", async () => {
    // Currencies no other test reads, so the rows below are this test's alone.
    const [a, b] = [`Q${uniqueCents() % 100}`, `X${uniqueCents() % 100}`].map((c) => c.padEnd(3, "Q"));
    const rows = async (currency: string) =>
      (await db().balanceRead.findMany({ where: { currency }, orderBy: { readAt: "asc" } })).map(
        (r) => `${r.availableMinor} @${(r.readAt.getTime() - t0) / 60_000}m`,
      );
    const t0 = Date.parse("2026-01-01T10:00:00Z");
    const at = (minutes: number) => new Date(t0 + minutes * 60_000);
    await recordBalanceReads(at(0), [
      { currency: a!, availableMinor: "100" },
      { currency: b!, availableMinor: "7" },
    ]);
    await recordBalanceReads(at(1), [
      { currency: a!, availableMinor: "100" },
      { currency: b!, availableMinor: "8" },
    ]);
    await recordBalanceReads(at(4.9), [{ currency: a!, availableMinor: "100" }]);
    await recordBalanceReads(at(6), [{ currency: a!, availableMinor: "100" }]);
    expect(await rows(a!)).toEqual(["100 @0m", "100 @6m"]);
    expect(await rows(b!)).toEqual(["7 @0m", "8 @1m"]);
  });
});

describe("wallet balances", () => {
  test("balances are the Issuing Service's, per currency, with the time they were read", async () => {
    const finance = await makeStaff(["finance"]);
    await control("PUT", "/wallet", { balances: { USD: 4321.09 } });
    const before = Date.now();
    const overview = await getWalletOverview(finance);
    const upstreamItems = (await upstreamGet<{ items: UpstreamBalance[] }>("/wallet/balance")).items;
    expect(overview.balances.map((b) => b.currency)).toEqual(upstreamItems.map((b) => b.currency));
    expect(overview.balances.find((b) => b.currency === "USD")).toMatchObject({ availableMinor: "432109" });
    const usd = overview.balances.find((b) => b.currency === "USD")!;
    expect(BigInt(usd.totalMinor)).toBe(
      BigInt(usd.availableMinor) + BigInt(usd.reservedMinor) + BigInt(usd.pendingWithdrawalMinor),
    );
    expect(Date.parse(overview.readAt)).toBeGreaterThanOrEqual(before - 1);
  });

  test("finance, approvers, admins and viewers read the wallet; buyers and support do not (403)", async () => {
    for (const role of ["finance", "approver", "admin", "viewer"])
      await expect(getWalletOverview(await makeStaff([role]))).resolves.toBeTruthy();
    for (const role of ["buyer", "support"]) {
      const actor = await makeStaff([role]);
      for (const call of [
        getWalletOverview(actor),
        listDeposits(actor, {}),
        listCredits(actor, {}),
        getDepositAddress(actor),
        getBalanceHistory(actor, { currency: "USD" }),
      ]) {
        expect(statusOf(await refusal(call)), role).toBe(403);
      }
    }
  });
});

describe("deposit address", () => {
  test("finance requests the permanent address; it is audited and the same one comes back after", async () => {
    const finance = await makeStaff(["finance"]);
    const first = await requestDepositAddress(finance);
    expect(first).toMatchObject({
      network: "BSC",
      asset: "BSC-USD",
      currency: "USD",
      address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
    });
    const upstreamAddress = await upstreamGet<{ address: string }>("/wallet/deposit-addresses/bsc-usd");
    expect(first.address).toBe(upstreamAddress.address);
    const again = await requestDepositAddress(finance);
    expect(again).toMatchObject({ address: first.address, created: false });

    const audit = await db().auditEvent.findMany({
      where: { action: "wallet.deposit_address_request", actorId: finance.staffId },
      orderBy: { at: "asc" },
    });
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      targetType: "deposit-address",
      targetId: first.address,
      actorEmail: finance.email,
      correlationId: expect.any(String),
      details: { network: "BSC", asset: "BSC-USD", created: first.created },
    });
    expect(await getDepositAddress(await makeStaff(["viewer"]))).toMatchObject({ address: first.address });
  });

  test("no one but finance may request it: 403, nothing sent, nothing audited as a request", async () => {
    const auditsBefore = await db().auditEvent.count({ where: { action: "wallet.deposit_address_request" } });
    const upstreamBefore = ((await control("GET", "/audit")) as { items: unknown[] }).items.length;
    for (const role of ["admin", "buyer", "support", "approver", "viewer"]) {
      expect(statusOf(await refusal(requestDepositAddress(await makeStaff([role])))), role).toBe(403);
    }
    expect(await db().auditEvent.count({ where: { action: "wallet.deposit_address_request" } })).toBe(auditsBefore);
    expect(((await control("GET", "/audit")) as { items: unknown[] }).items.length).toBe(upstreamBefore);
  });
});

describe("deposit history", () => {
  test("pages newest first with the upstream's cursor; each deposit has amount, transaction hash, confirmations and time", async () => {
    const finance = await makeStaff(["finance"]);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await simulateDeposit(uniqueCents()));
    const first = await listDeposits(finance, { limit: "2" });
    expect(first.items.map((d) => d.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(first.hasMore).toBe(true);
    expect(first.items[0]).toMatchObject({
      amountMinor: String(Math.round(made[2]!.amount * 100)),
      currency: "USD",
      transactionHash: made[2]!.transactionHash,
      rail: "bsc-usd",
    });
    expect(first.items[0]!.confirmations).toBeGreaterThanOrEqual(15);
    expect(Date.parse(first.items[0]!.occurredAt)).not.toBeNaN();
    const second = await listDeposits(finance, { limit: "2", cursor: first.nextCursor! });
    expect(second.items[0]!.id).toBe(made[0]!.id);
  });

  test.each([
    [{ limit: "0" }, "limit"],
    [{ limit: "many" }, "limit"],
    [{ limit: "101" }, "limit"],
    [{ cursor: "not a cursor!" }, "cursor"],
    [{ currency: "usd" }, "currency"],
    [{ sort: "asc" }, "_"],
  ])("bad deposit query %j is a 400 with a field error", async (input, field) => {
    const error = await refusal(listDeposits(await makeStaff(["finance"]), input));
    expect(statusOf(error)).toBe(400);
    expect(Object.keys((error as { fieldErrors: object }).fieldErrors)).toContain(field);
  });

  test("a cursor the Issuing Service never gave out is a 400 too", async () => {
    expect(statusOf(await refusal(listDeposits(await makeStaff(["finance"]), { cursor: "bm90LWEtY3Vyc29y" })))).toBe(400);
  });

  test("bad chart and credit queries are 400s", async () => {
    const finance = await makeStaff(["finance"]);
    for (const call of [
      getBalanceHistory(finance, {}),
      getBalanceHistory(finance, { currency: "USD", days: "0" }),
      listCredits(finance, { limit: "1000" }),
    ]) {
      expect(statusOf(await refusal(call))).toBe(400);
    }
  });
});

describe("credits", () => {
  test("a wallet.credited webhook is matched to its deposit by amount and time; one without a deposit is shown unmatched", async () => {
    const finance = await makeStaff(["finance"]);
    const cents = uniqueCents();
    const deposit = await simulateDeposit(cents);
    const eventId = await receiveCreditFor(cents);
    const stray = await receive(envelope("wallet.credited", { amount: 0.37, currency: "USD", availableBalance: 1 }));

    const { items } = await listCredits(finance, { limit: "50" });
    expect(items.find((c) => c.eventId === eventId)).toMatchObject({
      amountMinor: String(cents),
      deposit: { id: deposit.id, transactionHash: deposit.transactionHash },
      unmatchedReason: null,
    });
    expect(items.find((c) => c.eventId === stray)).toMatchObject({
      deposit: null,
      candidates: 0,
      unmatchedReason: "no_deposit_fits",
    });
  });

  test("the chart's line ends at the live balance and rises by the credit at its time", async () => {
    // A currency no other test moves, so that every movement of it is known here.
    const currency = "CHF";
    const finance = await makeStaff(["finance"]);
    await control("PUT", "/wallet", { balances: { [currency]: 100 } });
    const cents = uniqueCents();
    await simulateDeposit(cents, currency);
    const eventId = await receiveCreditFor(cents);
    const credit = await db().walletCredit.findUniqueOrThrow({ where: { eventId } });
    const history = await getBalanceHistory(finance, { currency });
    const live = (await upstreamGet<UpstreamBalance>(`/wallet/balance?currency=${currency}`)).availableBalance;
    expect(String(Math.round(live * 100))).toBe(String(10_000 + cents));
    expect(history.points.map((p) => [p.at, p.availableMinor])).toEqual([
      [history.from, "10000"],
      [credit.createdAt.toISOString(), String(10_000 + cents)],
      [history.to, String(10_000 + cents)],
    ]);
  });
});

describe("low-balance warning", () => {
  test("staff who can order are warned about a currency below its threshold, and only then", async () => {
    const admin = await makeStaff(["admin"]);
    const buyer = await makeStaff(["buyer"]);
    await control("PUT", "/wallet", { balances: { USD: 250 } });
    await getWalletOverview(await makeStaff(["finance"])); // a fresh read refreshes the shared one
    await updateSettings(admin, { lowBalance: { USD: "300.00" } });
    expect(await getLowBalanceWarning(buyer)).toMatchObject({
      low: [{ currency: "USD", availableMinor: "25000", thresholdMinor: "30000" }],
    });
    await updateSettings(admin, { lowBalance: { USD: "250.00" } });
    expect(await getLowBalanceWarning(buyer)).toBeNull();
    for (const role of ["finance", "admin", "viewer", "support"])
      expect(statusOf(await refusal(getLowBalanceWarning(await makeStaff([role]))))).toBe(403);
  });

  test("many page views share one balance read", async () => {
    const buyer = await makeStaff(["buyer"]);
    upstream().cache.invalidate("wallet:balances");
    const before = upstream().cache.stats().misses;
    await Promise.all(Array.from({ length: 25 }, () => getLowBalanceWarning(buyer)));
    await getLowBalanceWarning(buyer);
    expect(upstream().cache.stats().misses - before).toBe(1);
  });
});

describe("the home's balances after the app moved money (lib/wallet/current-balances.ts)", () => {
  const usdOf = (overview: Awaited<ReturnType<typeof getWalletOverview>>) =>
    overview.balances.find((b) => b.currency === "USD")!.availableMinor;
  const upstreamUsd = async () =>
    String(Math.round((await upstreamGet<UpstreamBalance>("/wallet/balance?currency=USD")).availableBalance * 100));

  test("right after an order, the shared read says updating or is read again; past the floor it is the new figure", async () => {
    const [finance, buyer] = await Promise.all([makeStaff(["finance"]), makeStaff(["buyer"])]);
    const product = await variantProduct();
    await control("PUT", "/wallet", { balances: { USD: 20_000 } });
    await getWalletOverview(finance); // a fresh read: the shared one holds 20,000.00
    const before = await getWalletOverview(finance, { fresh: false });
    expect(usdOf(before)).toBe("2000000");

    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed");
    const moved = await upstreamUsd();
    expect(moved).not.toBe("2000000");
    const right = await getWalletOverview(finance, { fresh: false });
    // A young read is not taken again at once: the old figure is shown as updating, never as current.
    if (right.updating) expect(right.movedAt).not.toBeNull();
    else expect(usdOf(right)).toBe(moved);

    // Past the floor (the clock moved, nothing else), the read is taken again: the new figure, not updating.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + REREAD_FLOOR_MS + 1_000 });
    try {
      const later = await getWalletOverview(finance, { fresh: false });
      expect(later).toMatchObject({ updating: false });
      expect(usdOf(later)).toBe(moved);
    } finally {
      vi.useRealTimers();
    }
  });

  test("an order placed by another process: this process's next warning reads again, and finance hears of the crossing", async () => {
    const [admin, finance, buyer] = await Promise.all([makeStaff(["admin"]), makeStaff(["finance"]), makeStaff(["buyer"])]);
    const product = await variantProduct();
    const unit = product.variants[0].price;
    const threshold = 7_654;
    await updateSettings(admin, { lowBalance: { USD: threshold.toFixed(2) } });
    await control("PUT", "/wallet", { balances: { USD: threshold + unit / 2 } });
    await getWalletOverview(finance); // this process holds a read above the threshold
    expect(await getLowBalanceWarning(buyer)).toBeNull();

    // Another app process places an order: its upstream call and its mirror, and nothing in this process's memory.
    const reference = `other-process-${randomUUID().slice(0, 8)}`;
    const { data: order } = await upstream().createOrder(
      {
        item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: "USD" },
        clientReference: reference,
      },
      randomUUID(),
    );
    await mirrorOrder(order);

    // Once the read is past the floor (the clock moved, nothing else), the page's warning reads again.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + REREAD_FLOOR_MS + 1_000 });
    try {
      expect(await getLowBalanceWarning(buyer)).toMatchObject({ low: [{ currency: "USD" }] });
    } finally {
      vi.useRealTimers();
    }
    const heard = await db().notification.count({
      where: { staffId: finance.staffId, event: { kind: "wallet.low_balance", title: { startsWith: "Wallet below $7,654.00" } } },
    });
    expect(heard).toBe(1);
  });

  test("with no movement since, the shared read is served as it is", async () => {
    const finance = await makeStaff(["finance"]);
    // Seconds from now, so that no movement of an earlier test falls within the read's settle time.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10_000 });
    try {
      await getWalletOverview(finance);
      const misses = upstream().cache.stats().misses;
      const overview = await getWalletOverview(finance, { fresh: false });
      expect(overview.updating).toBe(false);
      expect(upstream().cache.stats().misses).toBe(misses);
    } finally {
      vi.useRealTimers();
    }
  });
});
