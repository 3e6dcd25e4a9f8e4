import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { deliverJournal } from "@/lib/books/deliver-journal";
import { exportDeliveredJournal } from "@/lib/books/export-delivered-journal";
import { updateDelivery } from "@/lib/books/update-delivery";
import { confirmBulkOrder } from "@/lib/bulk-orders/confirm-bulk-order";
import { previewBulkOrder } from "@/lib/bulk-orders/preview-bulk-order";
import { runBulkOrder } from "@/lib/bulk-orders/run-bulk-order";
import { importOrdersPage } from "@/lib/orders/import-orders-page";
import { IMPORT_STUCK_AFTER_MS, noticeImportIfStuck } from "@/lib/orders/import-notices";
import { placeOrder, submitOrder } from "@/lib/orders/place-order";
import { refreshOrder } from "@/lib/orders/refresh-order";
import { ensureSyncState } from "@/lib/orders/sync-state";
import { updateSettings } from "@/lib/settings/update-settings";
import { approveSpendRequest, rejectSpendRequest } from "@/lib/spend/decide-spend-request";
import { maintainSpendRequests } from "@/lib/spend/maintain-spend-requests";
import { checkBudgetExhaustion, EXHAUSTED_MINUTES } from "@/lib/upstream/budget-exhaustion";
import { createKeyHealth } from "@/lib/upstream/key-health";
import { upstreamBudget } from "@/lib/upstream/service";
import { recordShareRefusal, SHARE_MINUTES_TO_ALERT } from "@/lib/settings/share-refused";
import { readBalances } from "@/lib/wallet/read-balances";
import { approveWithdrawal, rejectWithdrawal } from "@/lib/withdrawals/decide-withdrawal";
import { maintainWithdrawals } from "@/lib/withdrawals/maintain-withdrawals";
import { requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";
import { spentByJob } from "@/lib/upstream/service";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { countNotifications, notificationsOf, received } from "../support/notifications";
import { control, eventually, upstreamGet } from "../support/sandbox";
import { decimal, orderOf, priceMinor, type Product } from "../support/spend";

// The producers of issue 41: each event notifies the right people, in its own transaction, once.
type Staff = Awaited<ReturnType<typeof makeStaff>>;

let product: Product;
let unit: bigint;
let admin: Staff;

beforeAll(async () => {
  await control("PUT", "/wallet", { balances: { USD: 1_000_000 } });
  product = await variantProduct();
  unit = priceMinor(product);
  admin = await makeStaff(["admin"]);
  // Withdrawals are approved only to named payout details.
  await updateSettings(admin, { payoutDetailsName: "Notices Ltd" });
});

afterAll(async () => {
  await updateSettings(admin, { spendApprovalAmount: "", lowBalance: { USD: "1000.00", EUR: "1000.00", GBP: "1000.00" } });
  await control("PUT", "/fulfilment", { failRate: 0 });
  await control("PUT", "/wallet", { balances: { USD: 1_000_000 } });
});

const two = (extra: Record<string, unknown> = {}) => {
  const input = orderOf(product, undefined, extra);
  return { ...input, item: { ...input.item, quantity: 2 } };
};

describe("approvals", () => {
  test("an order above the threshold: approvers but not the buyer hear it waits; the decision goes to the buyer, not the decider; once each", async () => {
    await updateSettings(admin, { spendApprovalAmount: decimal(unit + unit / 2n), spendApprovalHours: 24 });
    try {
      const buyer = await makeStaff(["buyer", "approver"]);
      const [checker, other] = [await makeStaff(["approver"]), await makeStaff(["approver"])];
      const input = two({ approvalReason: "Quarterly rewards" });
      const result = await submitOrder(buyer, input);
      if (result.kind !== "awaiting") throw new Error("expected the order to wait");
      const id = result.spendRequestId;

      const waiting = await notificationsOf(`approval.waiting:${id}`);
      expect(waiting.kind).toBe("approval.waiting");
      expect(waiting.title).toContain(`Order of ${money(unit * 2n)} (ref. ${input.clientReference})`);
      expect(waiting.title).toContain("waits for your approval");
      expect(waiting.link).toBe(`/spend-approvals#${id}`);
      // Enough to decide from the email: what, how many, the buyer's reason, why it needs approval.
      expect(waiting.body).toContain(`2 × ${product.name}`);
      expect(waiting.body).toContain(`: ${money(unit * 2n)}`);
      expect(waiting.body).toContain("Reason: Quarterly rewards");
      expect(waiting.body).toContain(`Needs approval because its total of ${money(unit * 2n)} is above the approval threshold`);
      expect(await received(checker.staffId, `approval.waiting:${id}`)).toBe(1);
      expect(await received(other.staffId, `approval.waiting:${id}`)).toBe(1);
      expect(await received(buyer.staffId, `approval.waiting:${id}`)).toBe(0); // holds approver, but asked for it

      await approveSpendRequest(checker, id, { comment: "Fine" });
      await expect(approveSpendRequest(other, id, {})).rejects.toMatchObject({ code: "not_pending" });
      const decided = await notificationsOf(`approval.decided:${id}`);
      // Told once placed, with what it became: the order, linked.
      const placed = await db().spendRequest.findUniqueOrThrow({ where: { id } });
      expect(placed.state).toBe("placed");
      expect(decided.title).toBe(
        `Order of ${money(unit * 2n)} (ref. ${input.clientReference}) was approved by ${checker.name} and placed`,
      );
      expect(decided.link).toBe(`/orders/${placed.orderId}`);
      expect(decided.body).toMatch(/fulfil/);
      expect(await received(buyer.staffId, `approval.decided:${id}`)).toBe(1);
      expect(await received(checker.staffId, `approval.decided:${id}`)).toBe(0);
      expect(await received(other.staffId, `approval.decided:${id}`)).toBe(0);
      expect(await received(checker.staffId, `approval.waiting:${id}`)).toBe(1); // nothing recorded twice
    } finally {
      await updateSettings(admin, { spendApprovalAmount: "" });
    }
  });

  test("a spend request about to expire warns its approvers once; a rejection reaches the buyer", async () => {
    await updateSettings(admin, { spendApprovalAmount: decimal(unit + unit / 2n), spendApprovalHours: 24 });
    try {
      const buyer = await makeStaff(["buyer"]);
      const checker = await makeStaff(["approver"]);
      const result = await submitOrder(buyer, two({ approvalReason: "Event prizes" }));
      if (result.kind !== "awaiting") throw new Error("expected the order to wait");
      const id = result.spendRequestId;
      await maintainSpendRequests();
      expect(await received(checker.staffId, `approval.expiring:${id}`)).toBe(0); // a day left: not yet
      // Half an hour left of its day: within the warning's two hours.
      await db().spendRequest.update({
        where: { id },
        data: { requestedAt: new Date(Date.now() - 23.5 * 3_600_000), expiresAt: new Date(Date.now() + 30 * 60_000) },
      });
      await maintainSpendRequests();
      await maintainSpendRequests();
      expect(await received(checker.staffId, `approval.expiring:${id}`)).toBe(1);
      expect(await received(buyer.staffId, `approval.expiring:${id}`)).toBe(0);
      expect((await notificationsOf(`approval.expiring:${id}`)).title).toMatch(
        /expires undecided at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
      );

      await rejectSpendRequest(checker, id, { comment: "Not this quarter" });
      expect((await notificationsOf(`approval.decided:${id}`)).title).toContain(`was rejected by ${checker.name}`);
      expect(await received(buyer.staffId, `approval.decided:${id}`)).toBe(1);
    } finally {
      await updateSettings(admin, { spendApprovalAmount: "" });
    }
  });

  test("a withdrawal: approvers hear it waits (not the requester holding approver), the requester hears the decision, an expiring one warns once", async () => {
    const maker = await makeStaff(["finance", "approver"]);
    const checker = await makeStaff(["approver"]);
    const amount = (100 + Math.floor(Math.random() * 900) + 0.37).toFixed(2);
    const requested = await requestWithdrawal(maker, { amount, currency: "USD", reason: "Monthly sweep" });
    const waiting = await notificationsOf(`approval.waiting:${requested.id}`);
    expect(waiting.title).toBe(
      `Withdrawal of ${money(BigInt(Math.round(Number(amount) * 100)))} from ${maker.name} waits for your approval`,
    );
    expect(waiting.link).toBe(`/withdrawals#${requested.id}-title`);
    expect(await received(checker.staffId, `approval.waiting:${requested.id}`)).toBe(1);
    expect(await received(maker.staffId, `approval.waiting:${requested.id}`)).toBe(0);

    await db().withdrawalRequest.update({
      where: { id: requested.id },
      data: { requestedAt: new Date(Date.now() - 47 * 3_600_000), expiresAt: new Date(Date.now() + 10 * 60_000) },
    });
    await maintainWithdrawals();
    await maintainWithdrawals();
    expect(await received(checker.staffId, `approval.expiring:${requested.id}`)).toBe(1);

    await rejectWithdrawal(checker, requested.id, { comment: "Keep the float" });
    expect(await received(maker.staffId, `approval.decided:${requested.id}`)).toBe(1);
    expect(await received(checker.staffId, `approval.decided:${requested.id}`)).toBe(0);

    const second = await requestWithdrawal(maker, { amount, currency: "USD", reason: "Monthly sweep" });
    await approveWithdrawal(checker, second.id, {});
    expect((await notificationsOf(`approval.decided:${second.id}`)).title).toContain(`was approved by ${checker.name}`);
  });
});

describe("the wallet below its low-balance threshold", () => {
  const read = () => readBalances({ fresh: true, priority: "background", by: spentByJob("low-balance") });
  const episodes = async () => (await db().lowBalanceLatch.findUnique({ where: { currency: "USD" } }))?.episode ?? 0;

  test("finance hears once when it crosses below, not on later reads or orders, and again only after it recovered", async () => {
    const finance = await makeStaff(["finance"]);
    const buyer = await makeStaff(["buyer"]);
    await updateSettings(admin, { lowBalance: { USD: "1000.00" } });
    await control("PUT", "/wallet", { balances: { USD: 1000 + Number(unit) / 100 / 2 } });
    await read();
    const before = await episodes();
    expect((await db().lowBalanceLatch.findUnique({ where: { currency: "USD" } }))?.low ?? false).toBe(false);

    // One order takes it below 1,000.00: the next read (this process forgot its cached one) crosses.
    await placeOrder(buyer, orderOf(product));
    await read();
    const key = `wallet.low_balance:USD:${before + 1}`;
    const crossed = await notificationsOf(key);
    expect(crossed.title).toMatch(/^Wallet below \$1,000\.00: \$9\d\d\.\d\d$/);
    expect(crossed.link).toBe("/wallet");
    expect(await received(finance.staffId, key)).toBe(1);
    expect(await received(buyer.staffId, key)).toBe(0);

    // Later orders and reads while it stays low: nothing new.
    await placeOrder(buyer, orderOf(product));
    await read();
    await read();
    expect(await episodes()).toBe(before + 1);
    expect(await received(finance.staffId, `wallet.low_balance:USD:${before + 2}`)).toBe(0);

    // Recovered, then below again: a second episode, a second notification.
    await control("PUT", "/wallet", { balances: { USD: 5000 } });
    await read();
    await control("PUT", "/wallet", { balances: { USD: 10 } });
    await read();
    expect(await episodes()).toBe(before + 2);
    expect(await received(finance.staffId, `wallet.low_balance:USD:${before + 2}`)).toBe(1);
    await control("PUT", "/wallet", { balances: { USD: 1_000_000 } });
    await read();
  });
});

describe("failed orders", () => {
  test("an order the upstream fails is told to the buyer who placed it, once", async () => {
    const buyer = await makeStaff(["buyer"]);
    const colleague = await makeStaff(["buyer"]);
    await control("PUT", "/fulfilment", { failRate: 1 });
    try {
      const input = orderOf(product);
      const { order } = await placeOrder(buyer, input);
      await eventually(async () => (await upstreamGet<{ status: string }>(`/orders/${order.id}`)).status === "failed");
      await refreshOrder(order.id, { alwaysRead: true });
      await refreshOrder(order.id, { alwaysRead: true });
      const told = await notificationsOf(`orders.failed:${order.id}`);
      expect(told.title).toBe(`Order ${input.clientReference} of ${money(unit)} failed`);
      expect(told.link).toBe(`/orders/${order.id}`);
      expect(await received(buyer.staffId, `orders.failed:${order.id}`)).toBe(1);
      expect(await received(colleague.staffId, `orders.failed:${order.id}`)).toBe(0);
    } finally {
      await control("PUT", "/fulfilment", { failRate: 0 });
    }
  });

  test("a bulk file's failures reach its buyer as one message, once the file is finished", async () => {
    const buyer = await makeStaff(["buyer"]);
    await control("PUT", "/fulfilment", { failRate: 1 });
    try {
      const batch = `notify-bulk-${randomUUID().slice(0, 6)}`;
      const rows = [1, 2, 3].map((n) => `${product.id},${product.variants[0].id},,1,${batch}-${n},`);
      const view = await previewBulkOrder(buyer, {
        fileName: `${batch}.csv`,
        csv: ["productId,variantId,value,quantity,clientReference,phoneNumber", ...rows].join("\r\n") + "\r\n",
      });
      await confirmBulkOrder(buyer, view.id);
      await runBulkOrder(view.id);
      const placed = await db().bulkOrderRow.findMany({ where: { bulkOrderId: view.id, state: "placed" } });
      expect(placed).toHaveLength(3);
      for (const row of placed) {
        await eventually(async () => (await upstreamGet<{ status: string }>(`/orders/${row.orderId}`)).status === "failed");
        await refreshOrder(row.orderId!, { alwaysRead: true });
      }
      const key = `orders.failed:bulk:${view.id}`;
      const told = await notificationsOf(key);
      expect(told.title).toBe(`Bulk file ${batch}.csv: 3 of 3 orders failed (${money(unit * 3n)})`);
      expect(told.link).toBe(`/orders/bulk/${view.id}`);
      expect(await received(buyer.staffId, key)).toBe(1);
      // None of its orders was told on its own.
      for (const row of placed) expect(await received(buyer.staffId, `orders.failed:${row.orderId}`)).toBe(0);
    } finally {
      await control("PUT", "/fulfilment", { failRate: 0 });
    }
  });
});

describe("admins' alerts", () => {
  test("a person past their upstream share in three minutes of an hour: admins hear once that hour", async () => {
    const flooder = await makeStaff(["buyer"]);
    const by = { kind: "person" as const, staffId: flooder.staffId, email: flooder.email };
    const key = `upstream.share_repeated:${flooder.staffId}:${new Date().toISOString().slice(0, 13)}`;
    for (let i = 1; i < SHARE_MINUTES_TO_ALERT; i++) await recordShareRefusal(by);
    expect(await received(admin.staffId, key)).toBe(0);
    await recordShareRefusal(by);
    await recordShareRefusal(by);
    expect(await received(admin.staffId, key)).toBe(1);
    expect((await notificationsOf(key)).title).toBe(
      `${flooder.email} went past their share of the upstream budget in ${SHARE_MINUTES_TO_ALERT} minutes of the last hour`,
    );
    expect(await received(flooder.staffId, key)).toBe(0);
  });

  test("a key the upstream refuses (401): admins hear once per run of refusals", async () => {
    const lookup = `lk${randomUUID().slice(0, 8)}`;
    await db().upstreamKey.create({ data: { lookup, name: "read", slot: "active", scopes: ["orders.read"], heldBy: ["web"] } });
    const health = createKeyHealth("web");
    const refuse = () =>
      health.outcome({ key: "read", lookup, scope: "orders.read", outcome: "unauthorized", message: "Unknown key." });
    refuse();
    const first = await eventually(
      async () => (await db().upstreamKey.findUnique({ where: { lookup } }))?.lastRefusalAt ?? undefined,
    );
    const key = `upstream.key_refused:${lookup}:${first.toISOString()}`;
    await eventually(async () => (await received(admin.staffId, key)) === 1);
    expect((await notificationsOf(key)).title).toBe(`The Issuing Service refused the read key ${lookup} (401)`);
    refuse();
    await eventually(async () => ((await db().upstreamKey.findUnique({ where: { lookup } }))?.lastRefusalAt ?? first) > first);
    // The run still began at the first refusal: key health's "stopped since".
    expect((await db().upstreamKey.findUnique({ where: { lookup } }))?.refusedSince).toEqual(first);
    expect(await db().upstreamKey.count({ where: { lookup } })).toBe(1);
    expect(await countNotifications("upstream.key_refused", lookup)).toBe(1);
  });

  test("the budget used up for several minutes in a row: admins hear once for the run", async () => {
    const cap = (await upstreamBudget().caps()).interactive;
    const now = new Date();
    const minute = (back: number) => new Date(now.getTime() - (now.getTime() % 60_000) - back * 60_000);
    for (let back = 1; back <= EXHAUSTED_MINUTES - 1; back++)
      await db().rateBudget.upsert({
        where: { windowStart: minute(back) },
        create: { windowStart: minute(back), used: cap },
        update: { used: cap },
      });
    expect(await checkBudgetExhaustion(now)).toBe(EXHAUSTED_MINUTES - 1);
    await db().rateBudget.upsert({
      where: { windowStart: minute(EXHAUSTED_MINUTES) },
      create: { windowStart: minute(EXHAUSTED_MINUTES), used: cap + 3 },
      update: { used: cap + 3 },
    });
    expect(await checkBudgetExhaustion(now)).toBeGreaterThanOrEqual(EXHAUSTED_MINUTES);
    await checkBudgetExhaustion(now);
    const key = `upstream.budget_exhausted:${minute(EXHAUSTED_MINUTES).toISOString()}`;
    expect(await received(admin.staffId, key)).toBe(1);
    await db().rateBudget.deleteMany({ where: { windowStart: { gte: minute(EXHAUSTED_MINUTES), lte: minute(1) } } });
  });

  test("the history import: admins hear when it finishes, and when a running import has been stuck, once per stall", async () => {
    const row = await ensureSyncState();
    await db().orderSync.update({
      where: { source: row.source },
      data: { importState: "running", importCursor: null, importStartedAt: new Date(), importOrders: 0, importLastPageAt: null },
    });
    const started = await ensureSyncState();
    for (let i = 0; i < 50 && (await importOrdersPage()).state === "running"; i++);
    const finishedKey = `import.finished:${started.source}:${started.importStartedAt.toISOString()}`;
    expect(await received(admin.staffId, finishedKey)).toBe(1);
    expect((await notificationsOf(finishedKey)).title).toMatch(/^The order history import finished: [\d,]+ orders?$/);

    const stalled = {
      ...started,
      importState: "running",
      importLastPageAt: new Date(Date.now() - IMPORT_STUCK_AFTER_MS - 60_000),
    };
    expect(await noticeImportIfStuck(stalled)).toBe(true);
    expect(await noticeImportIfStuck(stalled)).toBe(true);
    const stuckKey = `import.stuck:${started.source}:${stalled.importLastPageAt.toISOString()}`;
    expect(await received(admin.staffId, stuckKey)).toBe(1);
    expect(await noticeImportIfStuck({ ...stalled, importLastPageAt: new Date() })).toBe(false);
  });
});

const money = (minor: bigint) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Number(minor) / 100);

describe("books.journal_ready", () => {
  test("the people finance chose hear once a month, with a link to the month's journal that needs a reader of the books and expires after 7 days", async () => {
    const finance = await makeStaff(["finance"]);
    const colleague = await makeStaff(["finance"]);
    const viewer = await makeStaff(["viewer"]);
    const buyer = await makeStaff(["buyer"]);
    await expect(
      updateDelivery(finance, { schedule: "monthly", format: "xero", recipientIds: [buyer.staffId] }),
    ).rejects.toMatchObject({ code: "invalid_request", fieldErrors: { recipientIds: [expect.any(String)] } });
    await expect(updateDelivery(buyer, { schedule: "off", format: "plain", recipientIds: [] })).rejects.toMatchObject({
      code: "forbidden",
    });
    await updateDelivery(finance, { schedule: "monthly", format: "xero", recipientIds: [colleague.staffId, viewer.staffId] });
    try {
      const now = new Date("2031-02-01T00:01:00Z");
      const key = "books.journal_ready:2031-01";
      expect(await deliverJournal(now)).toEqual({ period: "2031-01", sent: true });
      expect(await deliverJournal(now)).toEqual({ period: "2031-01", sent: false });
      expect([
        await received(colleague.staffId, key),
        await received(viewer.staffId, key),
        await received(finance.staffId, key),
      ]).toEqual([1, 1, 0]);
      const event = await db().notificationEvent.findUniqueOrThrow({ where: { eventKey: key } });
      expect(event.title).toBe("The journal for January 2031 is ready (Xero manual journals)");
      const t = decodeURIComponent(new URL(event.link, "http://x").searchParams.get("t")!);
      const journal = await exportDeliveredJournal(viewer, { t });
      expect(journal.name).toBe("journal-2031-01-xero");
      await expect(exportDeliveredJournal(buyer, { t })).rejects.toMatchObject({ code: "forbidden" });
      await expect(exportDeliveredJournal(viewer, { t: `${t.slice(0, -2)}xx` })).rejects.toMatchObject({ code: "link_expired" });
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 7 * 86_400_000 + 60_000);
      await expect(exportDeliveredJournal(viewer, { t })).rejects.toMatchObject({ code: "link_expired" });
    } finally {
      vi.useRealTimers();
      await updateDelivery(finance, { schedule: "off", format: "plain", recipientIds: [] });
    }
  });
});
