import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { confirmBulkOrder } from "@/lib/bulk-orders/confirm-bulk-order";
import { previewBulkOrder } from "@/lib/bulk-orders/preview-bulk-order";
import { runBulkOrder } from "@/lib/bulk-orders/run-bulk-order";
import { toMinor } from "@/lib/money";
import { submitOrder } from "@/lib/orders/place-order";
import { updateSettings } from "@/lib/settings/update-settings";
import { approveSpendRequest, rejectSpendRequest } from "@/lib/spend/decide-spend-request";
import { maintainSpendRequests } from "@/lib/spend/maintain-spend-requests";
import type { Product as UpstreamProduct } from "@/lib/upstream/client";
import { makeStaff } from "../support/db";
import { control, upstreamGet } from "../support/sandbox";
import {
  countedBesides,
  countedOnce,
  decimal,
  limitedBuyer,
  orderOf,
  priceMinor,
  upstreamCount,
  type Product,
} from "../support/spend";
import { variantProduct } from "../support/catalog";

// Issue 50: a request that became an order counted twice (the order and the approved request),
// so buyers met their limits at about half and approvers read a wrong "so far". Every reader
// (the order form's "left", the limit check, an approver's card) must count each request once,
// in every state, or not at all once it can no longer be bought.

let product: Product;
let other: UpstreamProduct;
let p: bigint;
let admin: Actor;

beforeAll(async () => {
  await control("PUT", "/wallet", { balances: { USD: 1_000_000 } });
  product = await variantProduct();
  p = priceMinor(product);
  const page = await upstreamGet<{ items: UpstreamProduct[] }>("/products?category=gift-card&limit=100");
  other = page.items.find((x) => x.id !== product.id && x.isAvailable && x.currency === "USD" && x.variants.length > 0)!;
  admin = await makeStaff(["admin"]);
  // Two units of the product need approval; one does not.
  await updateSettings(admin, { spendApprovalAmount: decimal(p + p / 2n), spendApprovalHours: 24 });
});

afterEach(async () => {
  await control("DELETE", "/faults");
  for (const id of [product.id, other.id]) await control("PUT", `/products/${id}`, { priceFactor: 1, isAvailable: true });
});

afterAll(async () => {
  await updateSettings(admin, { spendApprovalAmount: "" });
});

/** A buyer with a daily and a monthly limit far above what the test spends. */
const buyerWithLimits = () => limitedBuyer({ perDay: p * 40n, perMonth: p * 60n });

/** Two units: above the threshold, so it waits. */
async function waitingOrder(buyer: Actor) {
  const input = orderOf(product, undefined, { approvalReason: "Quarterly rewards" });
  const result = await submitOrder(buyer, { ...input, item: { ...input.item, quantity: 2 } });
  if (result.kind !== "awaiting") throw new Error("expected the order to wait for approval");
  return { id: result.spendRequestId, reference: input.clientReference, amountMinor: p * 2n };
}

async function state(id: string) {
  return (await db().spendRequest.findUniqueOrThrow({ where: { id } })).state;
}

/** The periodic pass, as it runs for requests last touched a minute ago. */
async function periodicPass(id: string) {
  await db().spendRequest.update({ where: { id }, data: { updatedAt: new Date(Date.now() - 60_000) } });
  await maintainSpendRequests();
}

async function orderTotal(spendRequestId: string): Promise<bigint> {
  const { orderId } = await db().spendRequest.findUniqueOrThrow({ where: { id: spendRequestId } });
  return (await db().order.findUniqueOrThrow({ where: { id: orderId! } })).totalMinor;
}

describe("a spend request counts once against its buyer's limits, in every state", () => {
  test("an order: waiting, approved and placing, placed, sent back by a price rise and placed again; rejected, expired and refused ones stop counting", async () => {
    const buyer = await buyerWithLimits();
    const checker = await makeStaff(["approver"]);
    expect((await submitOrder(buyer, orderOf(product))).kind).toBe("placed"); // one unit, below the threshold
    // Another waiting request of the buyer's: its card shows what counts besides it.
    const probe = await waitingOrder(buyer);
    const seen = () => countedBesides(buyer, checker, probe);
    let counted = p;
    expect(await seen()).toEqual(countedOnce(counted));

    // Waiting: it counts at its total.
    const focus = await waitingOrder(buyer);
    expect(await seen()).toEqual(countedOnce(counted + p * 2n));

    // Approved and sent, the answer lost: bought upstream, not yet heard here; it counts once.
    await control("PUT", "/faults", { dropResponseAfterCommitRate: 1, methods: ["POST"], pathPrefix: "/api/v1/orders" });
    await expect(approveSpendRequest(checker, focus.id, {})).rejects.toMatchObject({ code: "outcome_unknown" });
    await control("DELETE", "/faults");
    expect(await state(focus.id)).toBe("approved");
    expect(await upstreamCount(focus.reference)).toBe(1);
    expect(await seen()).toEqual(countedOnce(counted + p * 2n));

    // Placed (the periodic pass hears of it under the same key): it counts once, as the order.
    await periodicPass(focus.id);
    expect(await state(focus.id)).toBe("placed");
    expect(await orderTotal(focus.id)).toBe(p * 2n);
    counted += p * 2n;
    expect(await seen()).toEqual(countedOnce(counted));

    // Rejected: it stops counting.
    const rejected = await waitingOrder(buyer);
    expect(await seen()).toEqual(countedOnce(counted + p * 2n));
    await rejectSpendRequest(checker, rejected.id, { comment: "Not this quarter" });
    expect(await seen()).toEqual(countedOnce(counted));

    // Expired: it stops counting.
    const expired = await waitingOrder(buyer);
    expect(await seen()).toEqual(countedOnce(counted + p * 2n));
    await db().spendRequest.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await maintainSpendRequests();
    expect(await state(expired.id)).toBe("expired");
    expect(await seen()).toEqual(countedOnce(counted));

    // Approved but refused upstream: nothing was bought, it stops counting.
    const refused = await waitingOrder(buyer);
    await control("PUT", `/products/${product.id}`, { isAvailable: false });
    expect((await approveSpendRequest(checker, refused.id, {})).state).toBe("failed");
    await control("PUT", `/products/${product.id}`, { isAvailable: true });
    expect(await seen()).toEqual(countedOnce(counted));

    // The price rose: back with the approvers, it counts once at its new total; approved again, once as the order.
    const risen = await waitingOrder(buyer);
    await control("PUT", `/products/${product.id}`, { priceFactor: 1.5 });
    const back = await approveSpendRequest(checker, risen.id, {});
    expect(back.state).toBe("awaiting");
    const newTotal = toMinor(Number(back.totals[0]!.total), "USD");
    expect(newTotal).toBeGreaterThan(p * 2n);
    expect(await seen()).toEqual(countedOnce(counted + newTotal));
    expect((await approveSpendRequest(checker, risen.id, {})).state).toBe("placed");
    expect(await orderTotal(risen.id)).toBe(newTotal);
    counted += newTotal;
    expect(await seen()).toEqual(countedOnce(counted));
    // Each approved request became exactly one order upstream.
    for (const r of [focus, risen]) expect(await upstreamCount(r.reference)).toBe(1);
  });

  test("a bulk file through approval: its rows count while they wait and are sent, then as the orders they became; a row refused stops counting", async () => {
    const buyer = await buyerWithLimits();
    const checker = await makeStaff(["approver"]);
    const probe = await waitingOrder(buyer);
    const seen = () => countedBesides(buyer, checker, probe);
    const batch = `counted-bulk-${randomUUID().slice(0, 8)}`;
    const q = toMinor(other.variants[0]!.price, "USD");
    const csv = [
      "productId,variantId,value,quantity,clientReference,phoneNumber",
      `${product.id},${product.variants[0].id},,2,${batch}-1,`,
      `${other.id},${other.variants[0]!.id},,1,${batch}-2,`,
    ].join("\n");
    const file = await previewBulkOrder(buyer, { csv, fileName: "counted.csv" });
    expect((await confirmBulkOrder(buyer, file.id, { approvalReason: "Partner launch" })).state).toBe("awaiting_approval");
    expect(await seen()).toEqual(countedOnce(p * 2n + q));

    const request = await db().spendRequest.findUniqueOrThrow({ where: { bulkOrderId: file.id } });
    await approveSpendRequest(checker, request.id, {});
    expect((await db().bulkOrder.findUniqueOrThrow({ where: { id: file.id } })).state).toBe("confirmed");
    expect(await seen()).toEqual(countedOnce(p * 2n + q));

    // The second row's product is gone by the time the job sends it: that row buys nothing.
    await control("PUT", `/products/${other.id}`, { isAvailable: false });
    expect(await runBulkOrder(file.id)).toMatchObject({ state: "done", open: 0 });
    const rows = await db().bulkOrderRow.findMany({ where: { bulkOrderId: file.id }, orderBy: { rowNumber: "asc" } });
    expect(rows.map((r) => r.state)).toEqual(["placed", "failed"]);
    const placed = await db().order.findUniqueOrThrow({ where: { id: rows[0]!.orderId! } });
    expect(placed.totalMinor).toBe(p * 2n);
    expect(await seen()).toEqual(countedOnce(p * 2n));
  });
});
