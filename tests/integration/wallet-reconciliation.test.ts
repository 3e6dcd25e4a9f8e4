import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { placeOrder } from "@/lib/orders/place-order";
import { refreshOrder } from "@/lib/orders/refresh-order";
import { exportReconciliationsCsv } from "@/lib/reconciliation/export-reconciliations";
import { getReconciliationDay, latestDifferences, listReconciliations } from "@/lib/reconciliation/list-reconciliations";
import { reconcileDay } from "@/lib/reconciliation/reconcile-day";
import { reconciliationJobs } from "@/lib/reconciliation/jobs";
import { WORKER_JOBS } from "@/lib/worker-jobs";
import type { JobContext } from "@/lib/jobs/define-job";
import { updateSettings } from "@/lib/settings/update-settings";
import { approveWithdrawal } from "@/lib/withdrawals/decide-withdrawal";
import { requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { notificationsOf, received } from "../support/notifications";
import { control, eventually, sandbox, upstreamGet } from "../support/sandbox";
import { receiveCredit } from "./webhook-support";

type UpstreamOrder = { id: string; status: string; total: number };
const DAY_MS = 86_400_000;
const cents = (amount: number) => BigInt(Math.round(amount * 100));
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function sandboxNow(): Promise<number> {
  return Date.parse(((await control("GET", "/clock")) as { nowUtc: string }).nowUtc);
}

/** Moves the sandbox clock forward to `target` (never back): no sleeping for a day to pass. */
async function advanceTo(target: number): Promise<void> {
  const seconds = Math.ceil((target - (await sandboxNow())) / 1000);
  if (seconds > 0) await control("POST", "/clock/advance", { seconds });
}

async function fulfilledAtSandbox(id: string): Promise<UpstreamOrder> {
  return eventually(async () => {
    const order = await upstreamGet<UpstreamOrder>(`/orders/${id}`);
    return order.status === "fulfilled" ? order : undefined;
  });
}

/**
 * The day under test is a fresh sandbox day (Monday to Thursday, so a withdrawal requested
 * on it is paid the next day), days after anything earlier test files did at the sandbox.
 */
let day = "";
let dayStart = 0;
beforeAll(async () => {
  await control("PUT", "/fulfilment", { mode: "auto", delayMs: 50, failRate: 0 });
  // Withdrawals are approved only to named payout details.
  await updateSettings(await makeStaff(["admin"]), { payoutDetailsName: "Reconciliation Ltd" });
  let start = Math.floor((await sandboxNow()) / DAY_MS + 5) * DAY_MS;
  while (![1, 2, 3, 4].includes(new Date(start).getUTCDay())) start += DAY_MS;
  dayStart = start;
  day = dayOf(start);
  await advanceTo(start + 60_000);
  // The day before is reconciled from a read just after its end: it opens the day under test.
  const before = await reconcileDay(dayOf(start - DAY_MS));
  expect(before.find((r) => r.currency === "USD")?.status).toBe("baseline");
});

describe("wallet reconciliation", () => {
  test("a day with orders, a refund, a deposit and a withdrawal reconciles to 0.00", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const placed: UpstreamOrder[] = [];
    for (let i = 0; i < 3; i++) {
      const { order } = await placeOrder(buyer, {
        idempotencyKey: randomUUID(),
        clientReference: `recon-${i}-${randomUUID().slice(0, 8)}`,
        item: { productId: product.id, variantId: product.variants[0].id, quantity: 1 + i, currency: "USD" },
      });
      placed.push(await fulfilledAtSandbox(order.id));
      await refreshOrder(order.id, { alwaysRead: true });
    }
    const refundedOrder = placed[1]!;
    await control("POST", `/orders/${refundedOrder.id}/refund`);
    expect((await refreshOrder(refundedOrder.id, { alwaysRead: true })).status).toBe("refunded");

    // Whole cents, then dollars: adding a fraction to 1000 in floating point can leave a third decimal, which the sandbox refuses.
    const depositAmount = (100_000 + Math.floor(Math.random() * 9000)) / 100;
    await control("POST", "/deposits", { amount: depositAmount, currency: "USD" });
    await receiveCredit(depositAmount);

    const finance = await makeStaff(["finance"]);
    const withdrawal = await requestWithdrawal(finance, {
      amount: "25.00",
      currency: "USD",
      reason: "Reconciliation test sweep",
    });
    await approveWithdrawal(await makeStaff(["approver"]), withdrawal.id, {});

    // The worker's read is taken after the day has closed; the withdrawal is paid out in between.
    await advanceTo(dayStart + DAY_MS + 6 * 3_600_000);
    const rows = await reconcileDay(day);
    const usd = rows.find((r) => r.currency === "USD")!;
    const captured = placed.reduce((sum, o) => sum + cents(o.total), 0n);
    expect(usd).toMatchObject({
      status: "reconciled",
      differenceMinor: 0n,
      capturedMinor: captured,
      capturedCount: 3,
      refundedMinor: cents(refundedOrder.total),
      refundedCount: 1,
      creditedMinor: cents(depositAmount),
      creditedCount: 1,
      // Held on the day, paid the next: the payout after the day's end is rolled back from the read.
      withdrawnMinor: 0n,
      afterDayMinor: -2500n,
    });
    expect(usd.expectedClosingMinor).toBe(usd.closingMinor);
    expect(rows.every((r) => r.status === "reconciled")).toBe(true);
  });

  test("an order placed straight at the sandbox and a deposit the app never heard of show as a difference of exactly their amounts, explained; re-running replaces the day", async () => {
    const product = await variantProduct();
    const res = await fetch(`${sandbox().baseUrl}/api/v1/orders`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": sandbox().apiKey, "idempotency-key": randomUUID() },
      body: JSON.stringify({
        clientReference: `outside-${randomUUID().slice(0, 8)}`,
        item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: "USD" },
      }),
    });
    expect(res.status).toBe(202);
    const outside = await fulfilledAtSandbox(((await res.json()) as UpstreamOrder).id);
    // Its wallet.credited webhook never reaches the app.
    const unheard = (await control("POST", "/deposits", { amount: 77.31, currency: "USD" })) as { id: string };
    const difference = 7731n - cents(outside.total);

    const nextDay = dayOf(dayStart + DAY_MS);
    await advanceTo(dayStart + 2 * DAY_MS + 5 * 60_000);
    const told = await makeStaff(["finance"]);
    const usd = (await reconcileDay(nextDay)).find((r) => r.currency === "USD")!;
    expect(usd).toMatchObject({ status: "difference", differenceMinor: difference, withdrawnMinor: 2500n, withdrawnCount: 1 });
    expect(usd.explanations).toEqual([
      expect.objectContaining({ kind: "unknown_order", id: outside.id, amountMinor: (-cents(outside.total)).toString() }),
      expect.objectContaining({ kind: "unheard_deposit", id: unheard.id, amountMinor: "7731" }),
    ]);

    const finance = await makeStaff(["finance"]);
    const [again] = (await reconcileDay(nextDay)).filter((r) => r.currency === "USD");
    expect({ ...again, updatedAt: null }).toEqual({ ...usd, updatedAt: null });
    expect(await db().walletReconciliation.count({ where: { day: nextDay, currency: "USD" } })).toBe(1);
    // Finance heard of the difference with the row, once (the re-run added nothing).
    const key = `reconciliation.difference:${nextDay}:USD`;
    expect(await received(told.staffId, key)).toBe(1);
    const notice = await notificationsOf(key);
    const sign = difference < 0n ? "-" : "+";
    const abs = Number(difference < 0n ? -difference : difference) / 100;
    expect(notice.title).toBe(
      `Reconciliation of ${nextDay} (USD) differs by ${sign}${new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(abs)}`,
    );
    expect(notice.link).toBe(`/wallet/reconciliation/${nextDay}`);

    const detail = await getReconciliationDay(finance, nextDay);
    expect(detail.find((r) => r.currency === "USD")).toMatchObject({
      differenceMinor: usd.differenceMinor!.toString(),
      explainedMinor: usd.differenceMinor!.toString(),
    });
    expect((await latestDifferences(finance)).map((r) => `${r.day} ${r.currency}`)).toContain(`${nextDay} USD`);
    const page = await listReconciliations(finance, { status: undefined, day: undefined }, { limit: 200 });
    expect(
      page.rows
        .filter((r) => r.currency === "USD")
        .map((r) => r.day)
        .slice(0, 3),
    ).toEqual([nextDay, day, dayOf(dayStart - DAY_MS)]);

    const csv = await new Response(await exportReconciliationsCsv(finance, { status: "difference", day: undefined })).text();
    const line = csv.split("\r\n").find((l) => l.startsWith(`${nextDay},USD,`));
    expect(line).toContain(`,${(Number(difference) / 100).toFixed(2)},${(Number(difference) / 100).toFixed(2)},`);
    expect(line).toContain(`unknown_order ${outside.id} -${outside.total.toFixed(2)}; unheard_deposit ${unheard.id} 77.31`);
  });

  test("buyers and support cannot read reconciliations; an unknown day is a 404", async () => {
    for (const role of ["buyer", "support"])
      await expect(listReconciliations(await makeStaff([role]), { status: undefined, day: undefined })).rejects.toMatchObject({
        code: "forbidden",
      });
    const viewer = await makeStaff(["viewer"]);
    await expect(getReconciliationDay(viewer, "1999-01-01")).rejects.toMatchObject({ status: 404 });
    await expect(getReconciliationDay(viewer, "not-a-day")).rejects.toMatchObject({ status: 404 });
  });

  test("the worker's job reconciles the day that just closed at 00:05 UTC, and at start-up only when that day is missing", async () => {
    const job = reconciliationJobs[0]!;
    expect(WORKER_JOBS).toContain(job);
    expect(job.schedule).toMatchObject({ cron: "5 0 * * *", data: { scheduled: true }, startup: true });
    // The handler as the queue calls it (the context is only for sending follow-ups, which this job does not).
    const run = (data: object) => job.handle([{ id: randomUUID(), name: job.queue.name, data }] as never, {} as JobContext);
    const yesterday = dayOf(Date.now() - DAY_MS);
    await db().walletReconciliation.deleteMany({ where: { day: yesterday } });

    await run({});
    const first = await db().walletReconciliation.findMany({ where: { day: yesterday }, orderBy: { currency: "asc" } });
    expect(first.map((r) => r.currency)).toContain("USD");
    await run({});
    expect(await db().walletReconciliation.findMany({ where: { day: yesterday }, orderBy: { currency: "asc" } })).toEqual(first);
    await run({ scheduled: true });
    const again = await db().walletReconciliation.findMany({ where: { day: yesterday }, orderBy: { currency: "asc" } });
    expect(again.map((r) => r.updatedAt > first[0]!.updatedAt)).toEqual(first.map(() => true));
  });
});
