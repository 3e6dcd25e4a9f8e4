import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { cancelBulkOrder } from "@/lib/bulk-orders/cancel-bulk-order";
import { confirmBulkOrder } from "@/lib/bulk-orders/confirm-bulk-order";
import { getBulkOrder } from "@/lib/bulk-orders/get-bulk-order";
import { listBulkOrders } from "@/lib/bulk-orders/list-bulk-orders";
import { bulkRowOrderRequest } from "@/lib/bulk-orders/place-bulk-row";
import { previewBulkOrder } from "@/lib/bulk-orders/preview-bulk-order";
import { runBulkOrder } from "@/lib/bulk-orders/run-bulk-order";
import { bulkPhase } from "@/lib/bulk-orders/states";
import { openLedgerEntry } from "@/lib/idempotency/ledger";
import { stopQueues } from "@/lib/jobs/queue";
import { startWorker } from "@/lib/jobs/worker";
import { WORKER_JOBS } from "@/lib/worker-jobs";
import { toMinor } from "@/lib/money";
import type { Product } from "@/lib/upstream/client";
import { upstream } from "@/lib/upstream/service";
import { makeStaff } from "../support/db";
import { control, eventually, upstreamGet } from "../support/sandbox";

type Actor = Awaited<ReturnType<typeof makeStaff>>;
const HEADER = "productId,variantId,value,quantity,clientReference,phoneNumber";
const PHONE = "+447700900123";

const products: Product[] = [];
const usd = (p: Product) => p.currency === "USD" && p.isAvailable;
const variantProducts = () =>
  products.filter((p) => usd(p) && p.variants.length > 0 && p.type !== "phone-top-up" && p.variants[0]!.price < 40).slice(0, 5);
const valueProduct = () => products.find((p) => usd(p) && p.minimumValue !== null && p.type !== "phone-top-up")!;
const topUp = () => products.find((p) => usd(p) && p.type === "phone-top-up")!;

beforeAll(async () => {
  for (let offset = 0; ; offset += 100) {
    const page = await upstreamGet<{ items: Product[]; hasMore: boolean }>(`/products?limit=100&offset=${offset}`);
    products.push(...page.items);
    if (!page.hasMore) break;
  }
  await control("PUT", "/wallet", { balances: { USD: 1_000_000 } });
});

afterAll(async () => {
  await control("DELETE", "/faults");
  await stopQueues();
});

/** One buyable row for product `p`: its first variant, its smallest value, a phone for top-ups. */
function rowFor(p: Product, reference: string, quantity = 1): string {
  const choice = p.variants.length > 0 ? `${p.variants[0]!.id},` : `,${p.minimumValue}`;
  return `${p.id},${choice},${quantity},${reference},${p.type === "phone-top-up" ? PHONE : ""}`;
}

/** 20 valid rows of every purchase style: variants, values on a grid, phone top-ups. */
function twentyRows(batch: string): string[] {
  const variants = variantProducts();
  const value = valueProduct();
  return Array.from({ length: 20 }, (_, i) => {
    const reference = `${batch}-${String(i + 1).padStart(2, "0")}`;
    if (i < 14) return rowFor(variants[i % variants.length]!, reference, (i % 2) + 1);
    if (i < 17)
      return `${value.id},,${Math.round((value.minimumValue! + (i - 14) * value.valueStep!) * 100) / 100},1,${reference},`;
    return rowFor(topUp(), reference);
  });
}

const upstreamCount = async (reference: string) =>
  (await upstreamGet<{ items: unknown[] }>(`/orders?clientReference=${encodeURIComponent(reference)}&limit=100`)).items.length;

async function countsFor(references: string[]): Promise<number[]> {
  return Promise.all(references.map(upstreamCount));
}

const references = (batch: string, n = 20) => Array.from({ length: n }, (_, i) => `${batch}-${String(i + 1).padStart(2, "0")}`);

async function previewed(buyer: Actor, lines: string[], fileName = "orders.csv") {
  return previewBulkOrder(buyer, { fileName, csv: [HEADER, ...lines].join("\r\n") + "\r\n" });
}

describe("bulk orders", () => {
  test("a 20-row CSV previews with per-row errors and a priced total; one confirmation places exactly 20 orders", async () => {
    const buyer = await makeStaff(["buyer"]);
    const batch = `bulk-${randomUUID().slice(0, 8)}`;
    const variant = variantProducts()[0]!;
    const value = valueProduct();
    const unavailable = products.find((p) => !p.isAvailable && p.variants.length > 0)!;
    const invalid = [
      `prd_nope,var_nope,,1,${batch}-x1,`,
      `${variant.id},var_not_of_this_product,,1,${batch}-x2,`,
      `${value.id},,${Number(value.maximumValue) + Number(value.valueStep)},1,${batch}-x3,`,
      `${unavailable.id},${unavailable.variants[0]!.id},,1,${batch}-x4,`,
      `${topUp().id},${topUp().variants[0]?.id ?? ""},${topUp().variants.length ? "" : topUp().minimumValue},1,${batch}-x5,`,
    ];
    const view = await previewed(buyer, [...twentyRows(batch), ...invalid]);

    expect(view).toMatchObject({ state: "draft", rowCount: 25, validCount: 20, isOwner: true, fileName: "orders.csv" });
    const byRef = new Map(view.rows.map((r) => [r.cells.clientReference, r]));
    expect(byRef.get(`${batch}-x1`)!.errors).toEqual({ productId: ["No product with this id in the catalog."] });
    expect(byRef.get(`${batch}-x2`)!.errors?.variantId?.[0]).toMatch(/Not a variant of this product/);
    expect(byRef.get(`${batch}-x3`)!.errors?.value?.[0]).toMatch(/Not on this product's grid/);
    expect(byRef.get(`${batch}-x4`)!.errors?.productId).toEqual(["This product is unavailable right now."]);
    expect(byRef.get(`${batch}-x5`)!.errors?.phoneNumber?.[0]).toMatch(/needs the phone number/);

    // Priced: variants at price × quantity, values by quote; the total is their exact sum in minor units.
    const valid = view.rows.filter((r) => !r.errors);
    expect(valid).toHaveLength(20);
    for (const row of valid.filter((r) => r.cells.productId === variant.id)) {
      expect(BigInt(row.quotedTotalMinor!)).toBe(toMinor(variant.variants[0]!.price, "USD") * BigInt(row.cells.quantity));
    }
    const sum = valid.reduce((total, r) => total + BigInt(r.quotedTotalMinor!), 0n);
    expect(view.totals).toEqual([{ currency: "USD", totalMinor: sum.toString() }]);
    expect(await countsFor(references(batch))).toEqual(Array(20).fill(0));

    const confirmed = await confirmBulkOrder(buyer, view.id);
    expect(confirmed.state).toBe("confirmed");
    expect(confirmed.rows.filter((r) => r.state === "skipped")).toHaveLength(5);
    const keys = await db().bulkOrderRow.findMany({ where: { bulkOrderId: view.id, idempotencyKey: { not: null } } });
    expect(keys).toHaveLength(20);

    const result = await runBulkOrder(view.id);
    expect(result).toEqual({ state: "done", open: 0, retryInSeconds: null });
    const done = await getBulkOrder(buyer, view.id);
    expect(done.progress).toMatchObject({ toPlace: 20, placed: 20, failed: 0, settled: 20 });
    expect(done.rows.filter((r) => r.state === "placed").every((r) => r.orderId && r.orderStatus)).toBe(true);
    expect(await countsFor(references(batch))).toEqual(Array(20).fill(1));
    expect(await countsFor(invalid.map((_, i) => `${batch}-x${i + 1}`))).toEqual(Array(5).fill(0));
    expect(await db().order.count({ where: { clientReference: { startsWith: `${batch}-` }, placedById: buyer.staffId } })).toBe(
      20,
    );
    expect(await db().auditEvent.count({ where: { action: "bulk_order.confirm", targetId: view.id } })).toBe(1);

    // Confirming again and running again change nothing.
    expect((await confirmBulkOrder(buyer, view.id)).state).toBe("done");
    expect(await runBulkOrder(view.id)).toMatchObject({ state: "done", open: 0 });
    expect(await countsFor(references(batch))).toEqual(Array(20).fill(1));
    expect((await listBulkOrders(buyer))[0]).toMatchObject({ id: view.id, state: "done", progress: { placed: 20 } });

    // The same file again is refused row by row: those references are spoken for.
    const again = await previewed(buyer, twentyRows(batch));
    expect(again.validCount).toBe(0);
    expect(again.rows[0]!.errors?.clientReference?.[0]).toMatch(/Already used by order/);
  });

  test("an unavailable or unknown product is the row's one product problem, whatever else the row lacks", async () => {
    const buyer = await makeStaff(["buyer"]);
    const batch = `bulk-gone-${randomUUID().slice(0, 8)}`;
    const unavailable = products.find((p) => !p.isAvailable)!;
    const view = await previewed(buyer, [
      `${unavailable.id},,,1,${batch}-1,`, // no variant, no value: what a person writes for a product they cannot see offered
      `${unavailable.id},,,0,${batch}-2,`,
      `${unavailable.id},var_not_of_this_product,,1,${batch}-3,`,
      `prd_nope,,,1,${batch}-4,`,
      `${variantProducts()[0]!.id},,,1,${batch}-5,`, // an available product: the missing variant is the problem
    ]);
    const errors = view.rows.map((r) => r.errors);
    expect(errors[0]).toEqual({ productId: ["This product is unavailable right now."] });
    expect(errors[1]).toEqual({ productId: ["This product is unavailable right now."], quantity: [expect.any(String)] });
    expect(errors[2]).toEqual({ productId: ["This product is unavailable right now."] });
    expect(errors[3]).toEqual({ productId: ["No product with this id in the catalog."] });
    expect(errors[4]?.variantId?.[0]).toMatch(/^Give a variant id/);
    expect(view.rows[0]!.productName).toBe(unavailable.name);
    expect(view.validCount).toBe(0);
  });

  test("a client reference given twice in one file orders the first row and skips only the later ones", async () => {
    const buyer = await makeStaff(["buyer"]);
    const batch = `bulk-dup-${randomUUID().slice(0, 8)}`;
    const variant = variantProducts()[0]!;
    const view = await previewed(buyer, [
      rowFor(variant, `${batch}-a`),
      rowFor(variant, `${batch}-b`),
      rowFor(variant, `${batch}-a`, 2),
      rowFor(variant, `${batch}-a`, 3),
    ]);
    expect(view.rows.map((r) => r.errors?.clientReference?.[0] ?? null)).toEqual([
      null,
      null,
      "Row 2 already uses this client reference; each order needs its own, so this row is skipped.",
      "Row 2 already uses this client reference; each order needs its own, so this row is skipped.",
    ]);
    expect(view.validCount).toBe(2);
    await confirmBulkOrder(buyer, view.id);
    expect(await runBulkOrder(view.id)).toMatchObject({ state: "done", open: 0 });
    const done = await getBulkOrder(buyer, view.id);
    expect(done.rows.map((r) => r.state)).toEqual(["placed", "placed", "skipped", "skipped"]);
    expect(await countsFor([`${batch}-a`, `${batch}-b`])).toEqual([1, 1]);
    const placedA = await db().order.findFirstOrThrow({ where: { clientReference: `${batch}-a` } });
    expect(placedA.id).toBe(done.rows[0]!.orderId); // the first row's order (quantity 1)
  });

  test('a file whose rows were all sent is not "done" to a person while its orders are still processing', async () => {
    const buyer = await makeStaff(["buyer"]);
    const batch = `bulk-open-${randomUUID().slice(0, 8)}`;
    const variant = variantProducts()[0]!;
    await control("PUT", "/fulfilment", { mode: "manual" });
    try {
      const view = await previewed(buyer, [rowFor(variant, `${batch}-1`), rowFor(variant, `${batch}-2`)]);
      await confirmBulkOrder(buyer, view.id);
      expect(await runBulkOrder(view.id)).toMatchObject({ state: "done", open: 0 });
      const sent = await getBulkOrder(buyer, view.id);
      expect(sent).toMatchObject({ state: "done", ordersOpen: 2 });
      expect(bulkPhase(sent.state, sent.ordersOpen)).toBe("finishing");
      expect((await listBulkOrders(buyer))[0]).toMatchObject({ id: view.id, state: "done", ordersOpen: 2 });

      // What the webhooks write as the orders finish: one fulfilled, then the other failed.
      const [first, second] = sent.rows.map((r) => r.orderId!);
      await db().order.update({ where: { id: first }, data: { status: "fulfilled" } });
      expect((await getBulkOrder(buyer, view.id)).ordersOpen).toBe(1);
      await db().order.update({ where: { id: second }, data: { status: "failed" } });
      const finished = await getBulkOrder(buyer, view.id);
      expect(bulkPhase(finished.state, finished.ordersOpen)).toBe("done");
      expect((await listBulkOrders(buyer))[0]).toMatchObject({ id: view.id, ordersOpen: 0 });
    } finally {
      await control("PUT", "/fulfilment", { mode: "auto" });
    }
  });

  test("a crash mid-run, and a lost answer after a send, are resumed without a single double order", async () => {
    const buyer = await makeStaff(["buyer"]);
    const batch = `bulk-crash-${randomUUID().slice(0, 8)}`;
    const view = await previewed(buyer, twentyRows(batch));
    await confirmBulkOrder(buyer, view.id);

    // The process "dies" after the 6th row is recorded.
    let settled = 0;
    const crash = runBulkOrder(view.id, {
      concurrency: 1,
      afterRow: () => {
        if (++settled === 6) throw new Error("simulated crash");
      },
    });
    await expect(crash).rejects.toThrow("simulated crash");
    expect((await getBulkOrder(buyer, view.id)).progress).toMatchObject({ placed: 6, pending: 14 });

    // And the next row was claimed, ledgered and sent, but its answer never recorded.
    const row = (await db().bulkOrderRow.findFirst({
      where: { bulkOrderId: view.id, state: "pending" },
      orderBy: { rowNumber: "asc" },
    }))!;
    await db().bulkOrderRow.update({
      where: { id: row.id },
      data: { state: "placing", claimedAt: new Date(Date.now() - 600_000) },
    });
    const request = bulkRowOrderRequest(row);
    await openLedgerEntry(row.idempotencyKey!, "order.create", request, buyer.staffId);
    await upstream().createOrder(request, row.idempotencyKey!);
    expect(await upstreamCount(row.clientReference!)).toBe(1);

    // A second worker picking the job up finishes it; a third run finds nothing to do.
    expect(await runBulkOrder(view.id)).toMatchObject({ state: "done", open: 0 });
    expect(await runBulkOrder(view.id, { reclaimPlacingAfterMs: 0 })).toMatchObject({ state: "done", open: 0 });
    expect(await countsFor(references(batch))).toEqual(Array(20).fill(1));
    expect((await getBulkOrder(buyer, view.id)).progress).toMatchObject({ placed: 20, failed: 0 });
  });

  test("a row whose outcome is not heard stays in flight, then settles under its key with one order", async () => {
    const buyer = await makeStaff(["buyer"]);
    const batch = `bulk-unknown-${randomUUID().slice(0, 8)}`;
    const view = await previewed(buyer, twentyRows(batch).slice(0, 3));
    await confirmBulkOrder(buyer, view.id);
    // Every order request is processed upstream, but its answer is lost.
    await control("PUT", "/faults", { dropResponseAfterCommitRate: 1, methods: ["POST"], pathPrefix: "/api/v1/orders" });
    const first = await runBulkOrder(view.id, { concurrency: 3 });
    expect(first).toMatchObject({ state: "running", open: 3, retryInSeconds: 30 });
    const inFlight = await getBulkOrder(buyer, view.id);
    expect(inFlight.rows.map((r) => [r.state, r.errorCode])).toEqual(Array(3).fill(["placing", "outcome_unknown"]));

    await control("DELETE", "/faults");
    expect(await runBulkOrder(view.id, { reclaimPlacingAfterMs: 0 })).toMatchObject({ state: "done", open: 0 });
    expect(await countsFor(references(batch, 3))).toEqual([1, 1, 1]);
  });

  test("the price rising since the preview fails the row instead of paying more", async () => {
    const buyer = await makeStaff(["buyer"]);
    const product = variantProducts()[4]!;
    const batch = `bulk-price-${randomUUID().slice(0, 8)}`;
    const view = await previewed(buyer, [rowFor(product, `${batch}-01`)]);
    await confirmBulkOrder(buyer, view.id);
    await control("PUT", `/products/${product.id}`, { priceFactor: 1.5 });
    try {
      await runBulkOrder(view.id);
    } finally {
      await control("PUT", `/products/${product.id}`, { priceFactor: 1 });
      upstream().cache.invalidate("product:");
    }
    const done = await getBulkOrder(buyer, view.id);
    expect(done.rows[0]).toMatchObject({ state: "failed", errorCode: "price_above_maximum" });
    expect(done.rows[0]!.correlationId).toBeTruthy();
    expect(await upstreamCount(`${batch}-01`)).toBe(0);
  });

  test("a row whose key already holds another request (kept from before keys were namespaced) fails; the run ends", async () => {
    const buyer = await makeStaff(["buyer"]);
    const [a, b] = variantProducts();
    const batch = `bulk-taken-${randomUUID().slice(0, 8)}`;
    const view = await previewed(buyer, [rowFor(a!, `${batch}-01`), rowFor(a!, `${batch}-02`)]);
    // The buyer's order stored under the second row's key, as the app once kept clients' keys.
    const other = {
      item: { productId: b!.id, variantId: b!.variants[0]!.id, quantity: 1, currency: "USD" },
      clientReference: `${batch}-x`,
    };
    await openLedgerEntry(`bulk-${view.id}-${view.rows[1]!.rowNumber}`, "order.create", other, buyer.staffId);
    await confirmBulkOrder(buyer, view.id);

    expect(await runBulkOrder(view.id)).toMatchObject({ state: "done", open: 0 });
    const done = await getBulkOrder(buyer, view.id);
    expect(done.rows.map((r) => [r.state, r.errorCode])).toEqual([
      ["placed", null],
      ["failed", "idempotency_key_conflict"],
    ]);
    expect(await countsFor([`${batch}-01`, `${batch}-02`, `${batch}-x`])).toEqual([1, 0, 0]);
  });

  test("cancelling stops the rows not yet sent", async () => {
    const buyer = await makeStaff(["buyer"]);
    const batch = `bulk-cancel-${randomUUID().slice(0, 8)}`;
    const view = await previewed(buyer, twentyRows(batch).slice(0, 8));
    await confirmBulkOrder(buyer, view.id);
    let settled = 0;
    await expect(
      runBulkOrder(view.id, {
        concurrency: 1,
        afterRow: () => {
          if (++settled === 3) throw new Error("stop here");
        },
      }),
    ).rejects.toThrow();

    const cancelled = await cancelBulkOrder(buyer, view.id);
    expect(cancelled).toMatchObject({ state: "cancelled", progress: { placed: 3, cancelled: 5, settled: 8 } });
    expect(cancelled.finishedAt).not.toBeNull();
    expect(await runBulkOrder(view.id)).toMatchObject({ state: "cancelled", open: 0 });
    expect(await countsFor(references(batch, 8))).toEqual([1, 1, 1, 0, 0, 0, 0, 0]);
    expect((await cancelBulkOrder(buyer, view.id)).state).toBe("cancelled");
    await expect(confirmBulkOrder(buyer, view.id)).rejects.toMatchObject({ code: "conflict" });
  });

  test("only a buyer may upload, and only the uploader may confirm or cancel; others may follow it without the phone numbers", async () => {
    const buyer = await makeStaff(["buyer"]);
    const viewer = await makeStaff(["viewer", "support", "finance", "approver", "admin"]);
    const otherBuyer = await makeStaff(["buyer"]);
    const batch = `bulk-authz-${randomUUID().slice(0, 8)}`;
    await expect(previewed(viewer, twentyRows(batch).slice(0, 1))).rejects.toMatchObject({ code: "forbidden" });

    const view = await previewed(buyer, [rowFor(topUp(), `${batch}-01`)]);
    await expect(confirmBulkOrder(viewer, view.id)).rejects.toMatchObject({ code: "forbidden" });
    await expect(confirmBulkOrder(otherBuyer, view.id)).rejects.toMatchObject({ code: "forbidden" });
    await expect(cancelBulkOrder(otherBuyer, view.id)).rejects.toMatchObject({ code: "forbidden" });
    const seen = await getBulkOrder(viewer, view.id);
    expect(seen.isOwner).toBe(false);
    expect(seen.rows[0]!.cells.phoneNumber).toBe("••••••••123");
    expect(JSON.stringify(seen)).not.toContain(PHONE);
    await expect(getBulkOrder(viewer, "not-a-uuid")).rejects.toMatchObject({ code: "invalid_request" });
    await expect(getBulkOrder(viewer, randomUUID())).rejects.toMatchObject({ code: "not_found" });
    expect(await db().bulkOrder.findUniqueOrThrow({ where: { id: view.id } })).toMatchObject({ state: "draft" });
  });

  test("a preview is refused when the file cannot be read, and expires after an hour", async () => {
    const buyer = await makeStaff(["buyer"]);
    await expect(previewBulkOrder(buyer, { csv: "" })).rejects.toMatchObject({
      code: "invalid_request",
      fieldErrors: { csv: ["Choose a CSV file."] },
    });
    await expect(previewBulkOrder(buyer, { csv: "a,b\n1,2" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(previewBulkOrder(buyer, { csv: `${HEADER}\n`, extra: 1 })).rejects.toMatchObject({ code: "invalid_request" });

    const view = await previewed(buyer, [rowFor(variantProducts()[0]!, `bulk-old-${randomUUID().slice(0, 8)}`)]);
    await db().bulkOrder.update({ where: { id: view.id }, data: { createdAt: new Date(Date.now() - 2 * 3_600_000) } });
    await expect(confirmBulkOrder(buyer, view.id)).rejects.toMatchObject({ code: "preview_expired", status: 409 });
  });

  test("when the uploader loses the buyer role before the run, nothing more is bought", async () => {
    const buyer = await makeStaff(["buyer"]);
    const batch = `bulk-demoted-${randomUUID().slice(0, 8)}`;
    const view = await previewed(buyer, twentyRows(batch).slice(0, 2));
    await confirmBulkOrder(buyer, view.id);
    await db().staff.update({ where: { id: buyer.staffId }, data: { roles: ["viewer"] } });
    expect(await runBulkOrder(view.id)).toMatchObject({ state: "done", open: 0 });
    const done = await getBulkOrder({ ...buyer, roles: ["viewer"] }, view.id);
    expect(done.rows.map((r) => [r.state, r.errorCode])).toEqual([
      ["failed", "forbidden"],
      ["failed", "forbidden"],
    ]);
    expect(await countsFor(references(batch, 2))).toEqual([0, 0]);
    expect(await db().idempotencyKey.count({ where: { key: { startsWith: `bulk-${view.id}` } } })).toBe(0);
  });

  test("the worker takes a confirmed bulk order from the queue and places every row", async () => {
    const buyer = await makeStaff(["buyer"]);
    const batch = `bulk-worker-${randomUUID().slice(0, 8)}`;
    const worker = await startWorker(WORKER_JOBS, { periodic: false });
    try {
      const view = await previewed(buyer, twentyRows(batch));
      await confirmBulkOrder(buyer, view.id);
      const done = await eventually(
        async () => {
          const current = await getBulkOrder(buyer, view.id);
          return current.state === "done" ? current : undefined;
        },
        45_000,
        250,
      );
      expect(done.progress).toMatchObject({ placed: 20, settled: 20 });
      expect(await countsFor(references(batch))).toEqual(Array(20).fill(1));
    } finally {
      await worker.stop();
    }
  });
});
