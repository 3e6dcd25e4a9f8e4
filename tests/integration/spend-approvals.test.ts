import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { confirmBulkOrder } from "@/lib/bulk-orders/confirm-bulk-order";
import { previewBulkOrder } from "@/lib/bulk-orders/preview-bulk-order";
import { runBulkOrder } from "@/lib/bulk-orders/run-bulk-order";
import { openLedgerEntry } from "@/lib/idempotency/ledger";
import { submitOrder } from "@/lib/orders/place-order";
import { placeOrderSchema } from "@/lib/orders/schemas";
import { toUpstreamRequest } from "@/lib/orders/upstream-request";
import { updateSettings } from "@/lib/settings/update-settings";
import { approveSpendRequest, rejectSpendRequest } from "@/lib/spend/decide-spend-request";
import { listSpendRequests } from "@/lib/spend/list-spend-requests";
import { exportSpendRequestRows } from "@/lib/spend/export-spend-request-rows";
import { setSpendLimit } from "@/lib/spend/set-spend-limit";
import { upstream } from "@/lib/upstream/service";
import { maintainSpendRequests } from "@/lib/spend/maintain-spend-requests";
import { placeApprovedOrder } from "@/lib/spend/place-approved-order";
import { listStaff } from "@/lib/staff/list-staff";
import { deactivationConsequences } from "@/lib/staff/staff-view";
import { updateStaff } from "@/lib/staff/update-staff";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { notificationsOf, received } from "../support/notifications";
import { control } from "../support/sandbox";
import { decimal, orderOf, priceMinor, upstreamCount, type Product } from "../support/spend";

let product: Product;
let p: bigint;
let admin: Awaited<ReturnType<typeof makeStaff>>;

beforeAll(async () => {
  await control("PUT", "/wallet", { balances: { USD: 1_000_000 } });
  product = await variantProduct();
  p = priceMinor(product);
  admin = await makeStaff(["admin"]);
  // Above the threshold: two units of the product; one unit stays below it.
  await updateSettings(admin, { spendApprovalAmount: decimal(p + p / 2n), spendApprovalHours: 24 });
});

afterAll(async () => {
  await updateSettings(admin, { spendApprovalAmount: "" });
  await control("PUT", `/products/${product.id}`, { priceFactor: 1 });
});

const two = (extra: Record<string, unknown> = {}) => {
  const input = orderOf(product, undefined, extra);
  return { ...input, item: { ...input.item, quantity: 2 } };
};

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isAppError(error), String(error)).toBe(true);
  return error as { code: string; status?: number };
}

async function waitingOrder(buyer: Awaited<ReturnType<typeof makeStaff>>) {
  const input = two({ approvalReason: "Quarterly rewards" });
  const result = await submitOrder(buyer, input);
  if (result.kind !== "awaiting") throw new Error("expected the order to wait for approval");
  return { input, id: result.spendRequestId };
}

describe("orders above the approval threshold", () => {
  test("wait unsent; the buyer cannot approve their own even holding approver (nor can the database be made to); another approver's yes places it once", async () => {
    const buyer = await makeStaff(["buyer", "approver"]);
    const checker = await makeStaff(["approver"]);
    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed"); // below the threshold: as before
    expect((await refusal(submitOrder(buyer, two()))).code).toBe("approval_required");

    const { input, id } = await waitingOrder(buyer);
    expect(await upstreamCount(input.clientReference)).toBe(0);
    const mine = (await listSpendRequests(buyer)).find((r) => r.id === id)!;
    expect(mine).toMatchObject({
      state: "awaiting",
      own: true,
      canDecide: false,
      reason: "Quarterly rewards",
      totals: [{ currency: "USD", total: decimal(p * 2n) }],
    });
    expect((await listSpendRequests(checker)).find((r) => r.id === id)).toMatchObject({ canDecide: true, own: false });

    expect(await refusal(approveSpendRequest(buyer, id, {}))).toMatchObject({ code: "own_request", status: 403 });
    await expect(db().spendRequest.update({ where: { id }, data: { decidedById: buyer.staffId } })).rejects.toThrow();
    expect(await upstreamCount(input.clientReference)).toBe(0);

    const approved = await approveSpendRequest(checker, id, { comment: "Fine" });
    expect(approved).toMatchObject({
      state: "placed",
      decidedBy: { id: checker.staffId },
      approvedTotals: [{ currency: "USD", total: decimal(p * 2n) }],
    });
    expect(approved.orderId).toBeTruthy();
    const order = await db().order.findUniqueOrThrow({ where: { id: approved.orderId! } });
    expect(order.placedById).toBe(buyer.staffId);

    // Placed twice (a second click, the job) never buys twice.
    await placeApprovedOrder(id, checker);
    expect(await refusal(approveSpendRequest(checker, id, {}))).toMatchObject({ code: "not_pending" });
    expect(await upstreamCount(input.clientReference)).toBe(1);
    const actions = (await db().auditEvent.findMany({ where: { targetId: id }, orderBy: { at: "asc" } })).map((a) => a.action);
    expect(actions).toEqual(["spend.request", "spend.self_approval_refused", "spend.approve", "spend.placed"]);
  });

  test("a rejected request and an expired one are never sent, and stop counting", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const rejected = await waitingOrder(buyer);
    expect(await refusal(rejectSpendRequest(checker, rejected.id, {}))).toMatchObject({ code: "invalid_request" });
    expect(await rejectSpendRequest(checker, rejected.id, { comment: "Not this quarter" })).toMatchObject({
      state: "rejected",
      comment: "Not this quarter",
    });

    const expired = await waitingOrder(buyer);
    await db().spendRequest.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await maintainSpendRequests();
    expect(await db().spendRequest.findUniqueOrThrow({ where: { id: expired.id } })).toMatchObject({ state: "expired" });
    expect(await refusal(approveSpendRequest(checker, expired.id, {}))).toMatchObject({ code: "not_pending" });

    for (const r of [rejected, expired]) expect(await upstreamCount(r.input.clientReference)).toBe(0);
    const held = await db().spendCharge.findMany({ where: { staffId: buyer.staffId, state: { not: "released" } } });
    expect(held).toHaveLength(0);
    expect(await db().auditEvent.count({ where: { targetId: expired.id, action: "spend.expire" } })).toBe(1);
  });

  test("a price rise between request and approval returns it to the approvers with the old and new totals", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const { input, id } = await waitingOrder(buyer);
    await control("PUT", `/products/${product.id}`, { priceFactor: 1.5 });
    try {
      const back = await approveSpendRequest(checker, id, {});
      expect(back.state).toBe("awaiting");
      expect(back.previousTotals).toEqual([{ currency: "USD", total: decimal(p * 2n) }]);
      expect(Number(back.totals[0]!.total)).toBeGreaterThan(Number(decimal(p * 2n)));
      expect(back.decidedBy).toBeNull();
      expect(await upstreamCount(input.clientReference)).toBe(0);
      expect(await db().auditEvent.count({ where: { targetId: id, action: "spend.price_changed" } })).toBe(1);
      // The approvers hear of it again, as the request's second round waiting.
      expect(await received(checker.staffId, `approval.waiting:${id}:r2`)).toBe(1);
      expect(await received(buyer.staffId, `approval.waiting:${id}:r2`)).toBe(0);

      const placed = await approveSpendRequest(checker, id, { comment: "OK at the new price" });
      expect(placed.state).toBe("placed");
      expect(await upstreamCount(input.clientReference)).toBe(1);
    } finally {
      await control("PUT", `/products/${product.id}`, { priceFactor: 1 });
    }
  });

  test("an approved order the upstream refuses is told to its buyer, once", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const { id } = await waitingOrder(buyer);
    await control("PUT", `/products/${product.id}`, { isAvailable: false });
    try {
      expect((await approveSpendRequest(checker, id, {})).state).toBe("failed");
      await placeApprovedOrder(id, checker);
    } finally {
      await control("PUT", `/products/${product.id}`, { isAvailable: true });
    }
    expect(await received(buyer.staffId, `orders.failed:${id}`)).toBe(1);
    expect(await received(checker.staffId, `orders.failed:${id}`)).toBe(0);
    expect((await notificationsOf(`orders.failed:${id}`)).title).toMatch(
      /^Order of \$[\d,.]+ \(ref\. .+\) was approved but the Issuing Service refused it \(\w+\)$/,
    );
  });

  test("a bulk file above the threshold needs one approval for the whole file, then its rows are placed", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const batch = `spend-bulk-${randomUUID().slice(0, 8)}`;
    const refs = [1, 2, 3].map((i) => `${batch}-${i}`);
    const csv = [
      "productId,variantId,value,quantity,clientReference,phoneNumber",
      ...refs.map((r) => `${product.id},${product.variants[0].id},,1,${r},`),
    ].join("\n");
    const preview = await previewBulkOrder(buyer, { csv, fileName: "spend.csv" });
    expect((await refusal(confirmBulkOrder(buyer, preview.id, {}))).code).toBe("approval_required");

    const waiting = await confirmBulkOrder(buyer, preview.id, { approvalReason: "Partner launch" });
    expect(waiting.state).toBe("awaiting_approval");
    expect(await runBulkOrder(preview.id)).toMatchObject({ state: "awaiting_approval", open: 0 });
    const requests = await db().spendRequest.findMany({ where: { bulkOrderId: preview.id } });
    expect(requests).toHaveLength(1);
    expect(await Promise.all(refs.map(upstreamCount))).toEqual([0, 0, 0]);

    expect(await approveSpendRequest(checker, requests[0]!.id, {})).toMatchObject({ state: "placed", kind: "bulk" });
    await runBulkOrder(preview.id);
    expect(await Promise.all(refs.map(upstreamCount))).toEqual([1, 1, 1]);
  });
});

describe("what an approver sees beside a request", () => {
  test("the order's line (product, variant, quantity, unit and total), the buyer's spend against their limits and the wallet after it", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    await setSpendLimit(admin, { scope: buyer.staffId, currency: "USD", perOrder: "", perDay: decimal(p * 10n), perMonth: "" });
    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed"); // one unit: spent today before the request
    await control("PUT", "/wallet", { balances: { USD: 5_000 } });
    upstream().cache.invalidate("wallet:balances");
    const { id } = await waitingOrder(buyer);

    const view = (await listSpendRequests(checker)).find((r) => r.id === id)!;
    expect(view.lines).toEqual([
      {
        productId: product.id,
        productName: product.name,
        option: product.variants[0].displayValue,
        quantity: 2,
        unit: decimal(p),
        total: decimal(p * 2n),
        currency: "USD",
        pricedBy: "price",
        pricedAt: expect.any(String),
      },
    ]);
    expect(view.facts!.spend).toEqual([
      {
        currency: "USD",
        perOrder: null,
        today: { spent: decimal(p), withThis: decimal(p * 3n), limit: decimal(p * 10n), overLimit: false },
        month: { spent: decimal(p), withThis: decimal(p * 3n), limit: null, overLimit: false },
      },
    ]);
    expect(view.facts!.balance).toMatchObject({
      kind: "read",
      items: [{ currency: "USD", available: "5000.00", after: decimal(500_000n - p * 2n), short: false }],
    });
    // The buyer sees their lines, not the approver's facts (nor the wallet, which they may not read).
    expect((await listSpendRequests(buyer)).find((r) => r.id === id)).toMatchObject({ facts: null, lines: view.lines });
    await control("PUT", "/wallet", { balances: { USD: 1_000_000 } });
    upstream().cache.invalidate("wallet:balances");
  });

  test("a bulk file's rows, summed by product, and every row as a CSV without phone numbers", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const batch = `spend-rows-${randomUUID().slice(0, 8)}`;
    const csv = [
      "productId,variantId,value,quantity,clientReference,phoneNumber",
      `${product.id},${product.variants[0].id},,1,${batch}-1,`,
      `${product.id},${product.variants[0].id},,2,${batch}-2,`,
    ].join("\n");
    const preview = await previewBulkOrder(buyer, { csv, fileName: "march.csv" });
    await confirmBulkOrder(buyer, preview.id, { approvalReason: "Partner launch" });
    const request = (await listSpendRequests(checker)).find((r) => r.bulkOrderId === preview.id)!;
    expect(request.bulk).toEqual({
      fileName: "march.csv",
      rowCount: 2,
      validCount: 2,
      lines: [
        {
          productId: product.id,
          productName: product.name,
          option: product.variants[0].displayValue,
          rows: 2,
          quantity: 3,
          unit: decimal(p),
          total: decimal(p * 3n),
          currency: "USD",
        },
      ],
    });
    expect(request.rowsHref).toBe(`/api/spend-requests/${request.id}/rows`);
    const rows = await exportSpendRequestRows(checker, request.id);
    expect(rows.fileName).toBe("march-for-approval.csv");
    // Numbered as the file's lines are (the header is line 1), as the bulk order's page numbers them.
    expect(rows.csv.trim().split("\r\n")).toEqual([
      "row,clientReference,productId,product,option,quantity,total,currency",
      expect.stringMatching(new RegExp(`^2,${batch}-1,${product.id},.*,1,${decimal(p).replace(".", "\\.")},USD$`)),
      expect.stringMatching(new RegExp(`^3,${batch}-2,${product.id},.*,2,${decimal(p * 2n).replace(".", "\\.")},USD$`)),
    ]);
    // Another buyer cannot read it; an order's request has no rows.
    expect(await refusal(exportSpendRequestRows(await makeStaff(["buyer"]), request.id))).toMatchObject({ code: "not_found" });
    const { id } = await waitingOrder(buyer);
    expect(await refusal(exportSpendRequestRows(checker, id))).toMatchObject({ code: "not_found" });
  });
});

describe("keys the app derives cannot be claimed by a client", () => {
  test("a buyer who sends an approval's own key with another order gets an order of their own; the approval places exactly one order", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const { input, id } = await waitingOrder(buyer);
    // The key the approval will be placed under (round 1), sent by the buyer with a one-unit order.
    const claim = orderOf(product, `pre-claim-${randomUUID().slice(0, 8)}`, { idempotencyKey: `spend-${id}-1` });
    const own = await submitOrder(buyer, claim);
    expect(own.kind).toBe("placed");
    const again = await submitOrder(buyer, claim);
    expect(again).toMatchObject({ kind: "placed", replayed: true });

    const approved = await approveSpendRequest(checker, id, {});
    expect(approved.state).toBe("placed");
    expect(await upstreamCount(input.clientReference)).toBe(1);
    expect(await upstreamCount(claim.clientReference)).toBe(1);
    if (own.kind !== "placed") throw new Error("unreachable");
    expect(approved.orderId).not.toBe(own.order.id);
    await maintainSpendRequests();
    expect(await upstreamCount(input.clientReference)).toBe(1);
  });

  test("a derived key found holding another request (kept from before keys were namespaced) fails the approval visibly, never leaves it placing", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const { input, id } = await waitingOrder(buyer);
    // What the app stored before: the buyer's pre-claim under the bare key.
    const preClaimed = orderOf(product, `old-claim-${randomUUID().slice(0, 8)}`);
    await openLedgerEntry(`spend-${id}-1`, "order.create", toUpstreamRequest(placeOrderSchema.parse(preClaimed)), buyer.staffId);

    const decided = await approveSpendRequest(checker, id, {});
    expect(decided).toMatchObject({ state: "failed", failureCode: "idempotency_key_conflict" });
    expect(decided.outcomeNote).toMatch(/already used for another order\. Nothing was bought/);
    expect(await upstreamCount(input.clientReference)).toBe(0);
    const held = await db().spendCharge.findMany({ where: { source: `spend:${id}` } });
    expect(held.map((c) => c.state)).toEqual(["released"]);
    const failed = await db().auditEvent.findFirstOrThrow({ where: { targetId: id, action: "spend.failed" } });
    expect(failed.details).toEqual({ reason: "idempotency_key_conflict" });

    // The periodic pass finds nothing left to settle, and nothing is ever sent for it.
    await db().spendRequest.update({ where: { id }, data: { updatedAt: new Date(Date.now() - 60_000) } });
    await maintainSpendRequests();
    expect((await db().spendRequest.findUniqueOrThrow({ where: { id } })).state).toBe("failed");
    expect(await upstreamCount(input.clientReference)).toBe(0);
  });

  test("a request left approved by such a conflict before this fix is settled by the periodic pass", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const { input, id } = await waitingOrder(buyer);
    const preClaimed = orderOf(product, `stuck-${randomUUID().slice(0, 8)}`);
    await openLedgerEntry(`spend-${id}-1`, "order.create", toUpstreamRequest(placeOrderSchema.parse(preClaimed)), buyer.staffId);
    // As the old code left it: approved, "placing", nothing upstream.
    await db().spendRequest.update({
      where: { id },
      data: {
        state: "approved",
        decidedById: checker.staffId,
        decidedAt: new Date(),
        approvedTotals: { USD: (p * 2n).toString() },
        updatedAt: new Date(Date.now() - 60_000),
      },
    });
    await maintainSpendRequests();
    expect(await db().spendRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: "failed",
      failureCode: "idempotency_key_conflict",
    });
    expect(await upstreamCount(input.clientReference)).toBe(0);
  });
});

describe("a deactivated buyer's requests", () => {
  test("deactivating a buyer cancels their waiting requests in the same step, audited and released; none can be approved after", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const first = await waitingOrder(buyer);
    const second = await waitingOrder(buyer);
    const batch = `deactivated-bulk-${randomUUID().slice(0, 8)}`;
    const csv = [
      "productId,variantId,value,quantity,clientReference,phoneNumber",
      ...[1, 2].map((i) => `${product.id},${product.variants[0].id},,1,${batch}-${i},`),
    ].join("\n");
    const preview = await previewBulkOrder(buyer, { csv, fileName: "leaver.csv" });
    await confirmBulkOrder(buyer, preview.id, { approvalReason: "Last campaign" });
    const bulkRequest = await db().spendRequest.findUniqueOrThrow({ where: { bulkOrderId: preview.id } });
    const ids = [first.id, second.id, bulkRequest.id];

    // What the admin is told before confirming.
    const listed = (await listStaff(admin)).find((s) => s.id === buyer.staffId)!;
    expect(listed.waitingSpendRequests).toBe(3);
    expect(deactivationConsequences(listed)).toContain("3 waiting spend requests will be cancelled");

    await updateStaff(admin, buyer.staffId, { active: false });
    const rows = await db().spendRequest.findMany({ where: { id: { in: ids } } });
    expect(rows.map((r) => [r.state, r.failureCode])).toEqual(Array(3).fill(["cancelled", "buyer_deactivated"]));
    expect(await db().spendCharge.count({ where: { staffId: buyer.staffId, state: { not: "released" } } })).toBe(0);
    expect((await db().bulkOrder.findUniqueOrThrow({ where: { id: preview.id } })).state).toBe("cancelled");
    expect(
      await db().auditEvent.count({ where: { targetId: { in: ids }, action: "spend.cancel", actorId: admin.staffId } }),
    ).toBe(3);
    const deactivation = await db().auditEvent.findFirstOrThrow({
      where: { action: "staff.deactivate", targetId: buyer.staffId },
    });
    expect((deactivation.details as { cancelledSpendRequests: string[] }).cancelledSpendRequests.sort()).toEqual([...ids].sort());

    expect(await refusal(approveSpendRequest(checker, first.id, {}))).toMatchObject({ code: "not_pending" });
    const view = (await listSpendRequests(checker)).find((r) => r.id === second.id)!;
    expect(view).toMatchObject({ state: "cancelled", stateLabel: "Cancelled", canDecide: false });
    expect(view.outcomeNote).toMatch(/deactivated/);
    await runBulkOrder(preview.id);
    for (const ref of [first.input.clientReference, second.input.clientReference, `${batch}-1`, `${batch}-2`])
      expect(await upstreamCount(ref)).toBe(0);
    expect((await listStaff(admin)).find((s) => s.id === buyer.staffId)!.waitingSpendRequests).toBe(0);
  });

  test("approving a waiting request of a buyer who is no longer active is refused, and the request cancelled", async () => {
    const buyer = await makeStaff(["buyer"]);
    const checker = await makeStaff(["approver"]);
    const { input, id } = await waitingOrder(buyer);
    // Deactivated before deactivation cancelled anything: the request is still waiting.
    await db().staff.update({ where: { id: buyer.staffId }, data: { active: false } });

    expect(await refusal(approveSpendRequest(checker, id, {}))).toMatchObject({ code: "buyer_inactive", status: 409 });
    expect(await db().spendRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: "cancelled",
      failureCode: "buyer_deactivated",
    });
    expect(await db().spendCharge.count({ where: { source: `spend:${id}`, state: "held" } })).toBe(0);
    await maintainSpendRequests();
    expect(await upstreamCount(input.clientReference)).toBe(0);
  });
});
