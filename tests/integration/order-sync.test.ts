import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { startWorker, type Worker } from "@/lib/jobs/worker";
import { WORKER_JOBS } from "@/lib/worker-jobs";
import { ORDER_QUEUES } from "@/lib/orders/jobs";
import { getOrder } from "@/lib/orders/get-order";
import { placeOrder } from "@/lib/orders/place-order";
import { orderFilterSchema } from "@/lib/orders/list-orders";
import { searchOrders } from "@/lib/orders/search-orders";
import { findOrderById } from "@/lib/orders/find-order-by-id";
import { importOrdersPage } from "@/lib/orders/import-orders-page";
import { syncSource } from "@/lib/orders/sync-state";
import { variantProduct } from "../support/catalog";
import { makeStaff } from "../support/db";
import { control, eventually, sandbox } from "../support/sandbox";

// Orders the app did not place and webhooks it never received: lookup on demand, and the
// safety-net sync (every 2 s here; 120 s by default) against the shared sandbox.
const INTERVAL_SECONDS = 2;
const savedInterval = process.env.ORDERS_SYNC_INTERVAL_SECONDS;
process.env.ORDERS_SYNC_INTERVAL_SECONDS = String(INTERVAL_SECONDS);
let worker: Worker | null = null;

type UpstreamOrder = { id: string; status: string; clientReference: string };

/** An order placed directly at the upstream with the workspace's key, as a storefront does. */
async function placeDirectly(clientReference: string): Promise<UpstreamOrder> {
  const product = await variantProduct();
  const res = await fetch(`${sandbox().baseUrl}/api/v1/orders`, {
    method: "POST",
    headers: { "X-Api-Key": sandbox().apiKey, "Idempotency-Key": randomUUID(), "content-type": "application/json" },
    body: JSON.stringify({
      clientReference,
      item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: product.currency },
    }),
  });
  expect(res.status).toBe(202);
  return (await res.json()) as UpstreamOrder;
}

const mirrored = (id: string) => db().order.findUnique({ where: { id } });

afterAll(async () => {
  await worker?.stop();
  if (savedInterval === undefined) delete process.env.ORDERS_SYNC_INTERVAL_SECONDS;
  else process.env.ORDERS_SYNC_INTERVAL_SECONDS = savedInterval;
});

describe("lookup on demand", () => {
  test("an order placed elsewhere opens by its id in one request, marked as placed through the API elsewhere", async () => {
    const support = await makeStaff(["support"]);
    const placed = await placeDirectly(`storefront-${randomUUID().slice(0, 8)}`);
    expect(await mirrored(placed.id)).toBeNull();
    const order = await getOrder(support, placed.id);
    expect(order).toMatchObject({ id: placed.id, clientReference: placed.clientReference, origin: "elsewhere", placedBy: null });
    expect(await mirrored(placed.id)).not.toBeNull();
  });

  test("an id the upstream does not know is no such order in this workspace", async () => {
    const support = await makeStaff(["support"]);
    await expect(getOrder(support, "ord_doesnotexist0000")).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("no such order in this workspace"),
    });
    await expect(getOrder(support, "not an id/../x")).rejects.toMatchObject({ code: "not_found" });
    expect(await mirrored("ord_doesnotexist0000")).toBeNull();
  });

  test("an exact client reference the mirror lacks is found at the upstream", async () => {
    const support = await makeStaff(["support"]);
    const reference = `storefront-ref-${randomUUID().slice(0, 8)}`;
    const placed = await placeDirectly(reference);
    const found = await searchOrders(support, orderFilterSchema.parse({ reference }), { limit: 20 });
    expect(found.lookedUp).toBe(true);
    expect(found.rows.map((r) => [r.id, r.origin])).toEqual([[placed.id, "elsewhere"]]);
    const nothing = await searchOrders(support, orderFilterSchema.parse({ reference: `${reference}-typo` }), { limit: 20 });
    expect(nothing).toMatchObject({ rows: [], lookedUp: true });
  });

  test("the one search box finds an order placed elsewhere by its id or its exact reference; an unknown id lists nothing", async () => {
    const support = await makeStaff(["support"]);
    const byId = await placeDirectly(`storefront-q-${randomUUID().slice(0, 8)}`);
    const found = await searchOrders(support, orderFilterSchema.parse({ q: byId.id }), { limit: 20 });
    expect(found).toMatchObject({ lookedUp: true, rows: [{ id: byId.id, origin: "elsewhere" }] });
    expect(await findOrderById(support, byId.id)).toBe(byId.id);

    const byReference = await placeDirectly(`storefront-q-${randomUUID().slice(0, 8)}`);
    const listed = await searchOrders(support, orderFilterSchema.parse({ q: byReference.clientReference }), { limit: 20 });
    expect(listed.rows.map((r) => r.id)).toEqual([byReference.id]);

    expect(await findOrderById(support, "ord_nosuchorder00000")).toBeNull();
    const none = await searchOrders(support, orderFilterSchema.parse({ q: "ord_nosuchorder00000" }), { limit: 20 });
    expect(none).toMatchObject({ rows: [], lookedUp: true });
  });
});

describe("the safety-net sync", () => {
  beforeAll(async () => {
    // An earlier test file's worker may have left the sync chain's next link waiting with the
    // default interval (120 s); the queue keeps one waiting link per chain, so this file's 2 s
    // link would be dropped behind it. Start the chain afresh.
    const [queue] = await db().$queryRaw<{ exists: boolean }[]>`SELECT to_regclass('pgboss.job') IS NOT NULL AS "exists"`;
    if (queue?.exists)
      await db().$executeRaw`DELETE FROM pgboss.job WHERE name = ${ORDER_QUEUES.sync.name} AND state = 'created'`;
    worker = await startWorker(WORKER_JOBS);
    // The import's first page sets the high-water mark the sync reads from. An earlier test
    // file's worker may have stopped holding the import's job (the queue frees it only when it
    // expires), so the first step is also taken here, through the same function the job runs.
    await eventually(
      async () => {
        const mark = (await db().orderSync.findUnique({ where: { source: syncSource() } }))?.highWaterMark;
        if (mark) return mark;
        await importOrdersPage();
        return undefined;
      },
      60_000,
      200,
    );
  });

  test("an order whose webhooks never came, placed elsewhere, is mirrored with its final state within one interval", async () => {
    const placed = await placeDirectly(`storefront-missed-${randomUUID().slice(0, 8)}`);
    await eventually(async () => (await upstreamStatus(placed.id)) === "fulfilled", 10_000);
    const changedAt = Date.now();
    const row = await eventually(
      async () => {
        const order = await mirrored(placed.id);
        return order?.status === "fulfilled" ? order : undefined;
      },
      (INTERVAL_SECONDS + 5) * 1000,
      100,
    );
    expect(Date.now() - changedAt).toBeLessThan((INTERVAL_SECONDS + 5) * 1000);
    expect(row).toMatchObject({ placedById: null, idempotencyKey: null });
  });

  test("a refund whose webhook was missed (no endpoint registered) is caught up within one interval", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = await variantProduct();
    const { order } = await placeOrder(buyer, {
      idempotencyKey: randomUUID(),
      clientReference: `missed-refund-${randomUUID().slice(0, 8)}`,
      item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: product.currency },
    });
    await eventually(async () => (await mirrored(order.id))?.status === "fulfilled", 20_000, 100);
    const endpoints = (await control("GET", "/webhook-endpoints")) as { items: { workspace: string }[] };
    expect(endpoints.items.filter((e) => e.workspace === "ws_default")).toEqual([]);

    // Fulfilled is final to reconciliation: only a webhook or the sync can bring the refund.
    await control("POST", `/orders/${order.id}/refund`);
    const refundedAt = Date.now();
    await eventually(async () => (await mirrored(order.id))?.status === "refunded", (INTERVAL_SECONDS + 5) * 1000, 100);
    expect(Date.now() - refundedAt).toBeLessThan((INTERVAL_SECONDS + 5) * 1000);
    expect((await mirrored(order.id))?.placedById).toBe(buyer.staffId);
  });
});

async function upstreamStatus(id: string): Promise<string> {
  const res = await fetch(`${sandbox().baseUrl}/api/v1/orders/${id}`, { headers: { "X-Api-Key": sandbox().apiKey } });
  return ((await res.json()) as UpstreamOrder).status;
}
