import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { db } from "@/lib/db/client";
import { approveReopen } from "@/lib/books/approve-reopen";
import { exportJournal } from "@/lib/books/export-journal";
import { JOURNAL_FORMATS } from "@/lib/books/journal-formats";
import { lockPeriod } from "@/lib/books/lock-period";
import { requestReopen } from "@/lib/books/request-reopen";
import { DEFAULT_BOOK_ACCOUNTS } from "@/lib/books/accounts";
import { placeOrder } from "@/lib/orders/place-order";
import { refreshOrder } from "@/lib/orders/refresh-order";
import { updateSettings } from "@/lib/settings/update-settings";
import { approveWithdrawal } from "@/lib/withdrawals/decide-withdrawal";
import { requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { control, eventually, upstreamGet } from "../support/sandbox";
import { receiveCredit } from "./webhook-support";

/**
 * A seeded month long past (so no other test's movements share it): 300 orders in three
 * currencies (one in ten failed, one refunded), a deposit per currency, two withdrawals with
 * fees and a day the reconciliation left a difference open; then April, where a late failure
 * of a March order lands once March is locked.
 */
const MARCH = "2019-03";
const APRIL = "2019-04";
const CURRENCIES = ["USD", "EUR", "GBP"] as const;
const tag = randomUUID().slice(0, 8);
type Row = Record<string, string>;
type Seeded = { id: string; status: string; totalMinor: bigint; currency: string };
const orders: Seeded[] = [];
const credits: { eventId: string; amountMinor: bigint; currency: string }[] = [];
const withdrawals: { id: string; amountMinor: bigint; feeMinor: bigint; currency: string }[] = [];
const DIFFERENCE = { day: "2019-03-15", currency: "USD", differenceMinor: -123n };

const at = (day: number, hour = 10) => new Date(Date.UTC(2019, 2, day, hour, 0, 0));

async function csv(format: "plain" | "xero" | "qbo", period: string): Promise<{ text: string; rows: Row[] }> {
  const journal = await exportJournal(await reader(), { period, format });
  const text = await new Response(journal.stream).text();
  return { text, rows: parse(text, { columns: true, bom: false }) as Row[] };
}
let readerActor: Awaited<ReturnType<typeof makeStaff>> | null = null;
const reader = async () => (readerActor ??= await makeStaff(["finance"]));

const cents = (decimal: string) => (decimal ? BigInt(Math.round(Number(decimal) * 100)) : 0n);
/** Debit less credit of an account, per currency, over plain-journal rows. */
function net(rows: Row[], code: string): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const r of rows.filter((r) => r.account_code === code))
    sums.set(r.currency!, (sums.get(r.currency!) ?? 0n) + cents(r.debit!) - cents(r.credit!));
  return sums;
}

beforeAll(async () => {
  const finance = await makeStaff(["finance"]);
  for (let i = 0; i < 300; i++) {
    const currency = CURRENCIES[i % 3]!;
    const status = i === 7 ? "refunded" : i % 10 === 3 ? "failed" : "fulfilled";
    const created = new Date(at(1 + (i % 28)).getTime() + i * 1000);
    orders.push({ id: `ord_books_${tag}_${i}`, status, totalMinor: BigInt(500 + ((i * 137) % 9000)), currency });
    const o = orders[i]!;
    await db().order.create({
      data: {
        id: o.id,
        clientReference: `books-${tag}-${i}`,
        status,
        totalMinor: o.totalMinor,
        currency,
        lines: [{ productId: `p${i % 5}`, productName: `Product ${i % 5}`, country: ["US", "DE", "GB"][i % 3], quantity: 1 }],
        upstreamCreatedAt: created,
        upstreamUpdatedAt: new Date(created.getTime() + 60_000),
        createdAt: created,
      },
    });
  }
  for (const [n, currency] of CURRENCIES.entries()) {
    const credit = { eventId: `evt_books_${tag}_${currency}`, amountMinor: 5_000_000n + BigInt(n), currency };
    credits.push(credit);
    await db().walletCredit.create({ data: { ...credit, occurredAt: at(1, 8), createdAt: at(1, 8) } });
  }
  for (const [n, currency] of (["USD", "EUR"] as const).entries()) {
    const w = { id: randomUUID(), amountMinor: 100_000n + BigInt(n), feeMinor: 1_500n, currency };
    withdrawals.push(w);
    await db().withdrawalRequest.create({
      data: {
        id: w.id,
        amountMinor: w.amountMinor,
        currency,
        feeMinor: w.feeMinor,
        netMinor: w.amountMinor - w.feeMinor,
        quotedPayoutAt: at(21),
        reason: "Month-end sweep",
        state: "paid",
        requestedById: finance.staffId,
        requestedAt: at(20),
        expiresAt: at(21),
        sendStartedAt: at(20, 12),
        upstreamId: `wd_books_${tag}_${n}`,
        paidAt: at(21),
      },
    });
  }
  const zero = 0n;
  await db().walletReconciliation.create({
    data: {
      ...DIFFERENCE,
      status: "difference",
      openingMinor: zero,
      capturedMinor: zero,
      capturedCount: 0,
      refundedMinor: zero,
      refundedCount: 0,
      creditedMinor: zero,
      creditedCount: 0,
      withdrawnMinor: zero,
      withdrawnCount: 0,
      expectedClosingMinor: zero,
      closingMinor: DIFFERENCE.differenceMinor,
      readAt: at(16),
      readTotalMinor: zero,
      readAvailableMinor: zero,
      readReservedMinor: zero,
      readPendingMinor: zero,
      afterDayMinor: zero,
      explanations: [],
    },
  });
}, 120_000);

describe("the accounting export of a seeded month", () => {
  test("every journal (a day and a currency) balances, the orders part is the fulfilled orders and the wallet ties to its movements to the cent", async () => {
    const { rows } = await csv("plain", MARCH);
    const journals = new Map<string, bigint>();
    for (const r of rows) journals.set(r.journal!, (journals.get(r.journal!) ?? 0n) + cents(r.debit!) - cents(r.credit!));
    expect(journals.size).toBeGreaterThan(28);
    expect([...journals.values()].every((sum) => sum === 0n)).toBe(true);

    const accounts = DEFAULT_BOOK_ACCOUNTS;
    const costs = net(rows, accounts.costOfGoodsNumber);
    const wallet = net(rows, accounts.walletNumber);
    const movements = await db().walletMovement.groupBy({
      by: ["currency"],
      where: { at: { gte: new Date("2019-03-01T00:00:00Z"), lt: new Date("2019-04-01T00:00:00Z") } },
      _sum: { deltaMinor: true },
    });
    for (const currency of CURRENCIES) {
      const fulfilled = orders.filter((o) => o.currency === currency && o.status === "fulfilled");
      expect(costs.get(currency)).toBe(fulfilled.reduce((sum, o) => sum + o.totalMinor, 0n));
      const moved = movements.find((m) => m.currency === currency)?._sum.deltaMinor ?? 0n;
      const open = currency === DIFFERENCE.currency ? DIFFERENCE.differenceMinor : 0n;
      expect(wallet.get(currency)).toBe(moved + open);
    }
    // Withdrawals: the fee to fees, the rest to bank clearing.
    expect(net(rows, accounts.feesNumber).get("USD")).toBe(1_500n);
    expect(net(rows, accounts.suspenseNumber).get("USD")).toBe(123n);
    const refund = rows.filter((r) => r.description === "Order refunded by the supplier");
    expect(refund).toHaveLength(2);
    expect(refund[0]!.client_reference).toBe(`books-${tag}-7`);
    expect(
      rows
        .filter((r) => r.withdrawal_id === withdrawals[0]!.id)
        .map((r) => r.account_code)
        .sort(),
    ).toEqual([accounts.bankClearingNumber, accounts.feesNumber, accounts.walletNumber].sort());
  });

  test("an admin's account mapping (Settings) is what every line carries", async () => {
    const admin = await makeStaff(["admin"]);
    await updateSettings(admin, {
      bookAccounts: { ...DEFAULT_BOOK_ACCOUNTS, walletNumber: "1215", walletName: "Issuing Service wallet" },
    });
    try {
      const { rows } = await csv("plain", MARCH);
      expect(rows.filter((r) => r.account_code === "1215" && r.account_name === "Issuing Service wallet").length).toBeGreaterThan(
        300,
      );
      expect(rows.some((r) => r.account_code === "1210")).toBe(false);
      await expect(updateSettings(admin, { bookAccounts: { ...DEFAULT_BOOK_ACCOUNTS, feesName: "" } })).rejects.toMatchObject({
        fieldErrors: { "bookAccounts.feesName": ["Enter an account name."] },
      });
    } finally {
      await updateSettings(admin, { bookAccounts: DEFAULT_BOOK_ACCOUNTS });
    }
  });

  test("the three formats parse with csv-parse and carry exactly the documented headers, and each Xero narration and QuickBooks journal balances", async () => {
    for (const format of ["plain", "xero", "qbo"] as const) {
      const { text } = await csv(format, MARCH);
      const [header] = parse(text, { to_line: 1 }) as string[][];
      expect(header).toEqual([...JOURNAL_FORMATS[format].header]);
    }
    const xero = (await csv("xero", MARCH)).rows;
    const byNarration = new Map<string, bigint>();
    for (const r of xero) byNarration.set(r.Narration!, (byNarration.get(r.Narration!) ?? 0n) + cents(r.Amount!));
    expect([...byNarration.values()].every((sum) => sum === 0n)).toBe(true);
    expect(xero.every((r) => /^\d{2}\/03\/2019$/.test(r.Date!) && r.TaxRate === "Tax Exempt")).toBe(true);
    const qbo = (await csv("qbo", MARCH)).rows;
    const byJournal = new Map<string, bigint>();
    for (const r of qbo) byJournal.set(r.JournalNo!, (byJournal.get(r.JournalNo!) ?? 0n) + cents(r.Debits!) - cents(r.Credits!));
    expect([...byJournal.values()].every((sum) => sum === 0n)).toBe(true);
    expect(qbo.every((r) => /^03\/\d{2}\/2019$/.test(r.JournalDate!))).toBe(true);
  });

  test("a locked month's export never changes; a failure reported after the lock lands in April, flagged late; parallel locks: one passes", async () => {
    const finance = await makeStaff(["finance"]);
    const before = (await csv("plain", MARCH)).text;
    const locked = await lockPeriod(finance, MARCH, {});
    expect(locked.late).toBe(0);
    expect((await csv("plain", MARCH)).text).toBe(before);

    // The order's failure reaches the app in April (a late webhook), its release dated in March.
    const late = orders.find((o) => o.status === "fulfilled" && o.currency === "EUR")!;
    const order = await db().order.findUniqueOrThrow({ where: { id: late.id } });
    await db().order.update({
      where: { id: late.id },
      data: { status: "failed", upstreamUpdatedAt: new Date(order.upstreamUpdatedAt.getTime() + 60_000) },
    });
    expect((await csv("plain", MARCH)).text).toBe(before);
    // Nor when the accounts are mapped anew: it keeps those it was locked with.
    const admin = await makeStaff(["admin"]);
    await updateSettings(admin, { bookAccounts: { ...DEFAULT_BOOK_ACCOUNTS, costOfGoodsNumber: "5050" } });
    expect((await csv("plain", MARCH)).text).toBe(before);
    await updateSettings(admin, { bookAccounts: DEFAULT_BOOK_ACCOUNTS });
    const april = (await csv("plain", APRIL)).rows.filter((r) => r.order_id === late.id);
    expect(april).toHaveLength(2);
    expect(
      april.every((r) => r.late === "yes" && r.date === "2019-04-01" && r.description!.startsWith("Late, from 2019-03-")),
    ).toBe(true);
    expect(april.find((r) => r.account_code === DEFAULT_BOOK_ACCOUNTS.walletNumber)?.debit).toBe(
      (Number(late.totalMinor) / 100).toFixed(2),
    );

    const results = await Promise.allSettled([
      lockPeriod(finance, APRIL, {}),
      lockPeriod(await makeStaff(["finance"]), APRIL, {}),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "period_locked" } });
    expect(await db().bookEntry.count({ where: { period: APRIL, late: true } })).toBe(1);
    expect((await csv("plain", APRIL)).rows.filter((r) => r.late === "yes")).toHaveLength(2);
    expect(await db().auditEvent.count({ where: { action: "books.period_locked", targetId: { in: [MARCH, APRIL] } } })).toBe(2);
  });

  test("reopening needs a second person: the one who asked cannot approve (audited), another in finance can", async () => {
    const maker = await makeStaff(["finance"]);
    const checker = await makeStaff(["finance"]);
    await expect(lockPeriod(maker, "2019-02", { extra: 1 })).rejects.toMatchObject({ code: "invalid_request" });
    await lockPeriod(maker, "2019-02", {});
    await requestReopen(maker, "2019-02", { comment: "A deposit was booked to the wrong month" });
    await expect(approveReopen(maker, "2019-02", {})).rejects.toMatchObject({ code: "own_request" });
    expect(await db().auditEvent.count({ where: { action: "books.self_approval_refused", actorId: maker.staffId } })).toBe(1);
    expect(await db().bookPeriod.findUnique({ where: { period: "2019-02" } })).toMatchObject({ state: "reopen_requested" });
    await approveReopen(checker, "2019-02", {});
    expect(await db().bookPeriod.findUnique({ where: { period: "2019-02" } })).toBeNull();
    expect(
      await db().auditEvent.findFirst({
        where: { action: "books.period_reopened", targetId: "2019-02" },
        select: { actorId: true },
      }),
    ).toEqual({ actorId: checker.staffId });
    await expect(approveReopen(checker, "2019-02", {})).rejects.toMatchObject({ code: "not_pending" });
  });

  test("a month that has not ended cannot be locked, and a month written wrongly is a 400", async () => {
    const finance = await makeStaff(["finance"]);
    const current = new Date().toISOString().slice(0, 7);
    await expect(lockPeriod(finance, current, {})).rejects.toMatchObject({ code: "period_not_ended" });
    await expect(lockPeriod(finance, "2019-13", {})).rejects.toMatchObject({ code: "invalid_request" });
    await expect(exportJournal(finance, { period: "March", format: "plain" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(exportJournal(await makeStaff(["buyer"]), { period: MARCH })).rejects.toMatchObject({ code: "forbidden" });
  });

  test("this month's journal of what the app did at the sandbox moves the wallet account exactly as the supplier's available balance moved", async () => {
    await control("PUT", "/fulfilment", { mode: "auto", delayMs: 50, failRate: 0 });
    await updateSettings(await makeStaff(["admin"]), { payoutDetailsName: "Books Ltd" });
    const available = async () =>
      cents(String((await upstreamGet<{ availableBalance: number }>("/wallet/balance?currency=USD")).availableBalance));
    const before = await available();
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { order } = await placeOrder(buyer, {
        idempotencyKey: randomUUID(),
        clientReference: `books-live-${tag}-${i}`,
        item: { productId: product.id, variantId: product.variants[0].id, quantity: 1 + i, currency: "USD" },
      });
      ids.push(order.id);
      await eventually(async () => (await upstreamGet<{ status: string }>(`/orders/${order.id}`)).status === "fulfilled");
      await refreshOrder(order.id, { alwaysRead: true });
    }
    await control("POST", `/orders/${ids[1]}/refund`);
    expect((await refreshOrder(ids[1]!, { alwaysRead: true })).status).toBe("refunded");
    // Whole cents, then dollars: 700 + 12.34 in floating point is 712.3399999999999, which the sandbox refuses.
    const deposit = (70_000 + Math.floor(Math.random() * 9000)) / 100;
    await control("POST", "/deposits", { amount: deposit, currency: "USD" });
    await receiveCredit(deposit);
    const credit = await db().walletCredit.findFirstOrThrow({
      where: { amountMinor: cents(deposit.toFixed(2)) },
      orderBy: { createdAt: "desc" },
    });
    const finance = await makeStaff(["finance"]);
    const withdrawal = await requestWithdrawal(finance, { amount: "40.00", currency: "USD", reason: "Books test sweep" });
    await approveWithdrawal(await makeStaff(["approver"]), withdrawal.id, {});
    const after = await available();

    const month = new Date().toISOString().slice(0, 7);
    const journal = await exportJournal(finance, { period: month, format: "plain", currency: "USD" });
    const rows = (parse(await new Response(journal.stream).text(), { columns: true }) as Row[]).filter(
      (r) => ids.includes(r.order_id!) || r.deposit_id === credit.eventId || r.withdrawal_id === withdrawal.id,
    );
    expect(rows.filter((r) => r.withdrawal_id === withdrawal.id)).toHaveLength(3);
    expect(net(rows, DEFAULT_BOOK_ACCOUNTS.walletNumber).get("USD")).toBe(after - before);
  });
});
