import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import type { Product } from "@/lib/upstream/client";
import { addWatch, listWatches, removeWatch } from "@/lib/catalog-watch/manage-watches";
import { runWatchPass } from "@/lib/catalog-watch/run-watch-pass";
import { getProduct } from "@/lib/catalog/get-product";
import { listProducts } from "@/lib/catalog/list-products";
import { previewBulkOrder } from "@/lib/bulk-orders/preview-bulk-order";
import { submitOrder } from "@/lib/orders/place-order";
import { listSpendRequests } from "@/lib/spend/list-spend-requests";
import { bulkPriceNote } from "@/lib/spend/spend-price-notes";
import { makeStaff } from "../support/db";
import { limitedBuyer, orderOf } from "../support/spend";
import { control, eventually, upstreamGet } from "../support/sandbox";

// Issue 56: the watch notices what the sandbox's control plane changes, records it once and
// tells each watcher once, grouped; what nobody watches, or what moves too little, reaches nobody.
type Staff = Awaited<ReturnType<typeof makeStaff>>;

let products: Product[];
const nth = (i: number) => () => products[i]!;
const [p1, p2, p3, p4, p5, p6] = [nth(0), nth(1), nth(2), nth(3), nth(4), nth(5)];

/** The catalog.changed notifications one person has, oldest first. */
async function heard(staff: Staff) {
  const rows = await db().notification.findMany({
    where: { staffId: staff.staffId, event: { kind: "catalog.changed" } },
    include: { event: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((row) => ({ title: row.event.title, body: row.event.body ?? "", link: row.event.link }));
}

const pass = () => runWatchPass({ gapMs: 0 });
const changesOf = (productId: string) => db().catalogChange.findMany({ where: { productId }, orderBy: { detectedAt: "asc" } });

beforeAll(async () => {
  // Six available USD gift cards bought by variant, none yet known to the watch.
  const all: Product[] = [];
  for (let offset = 0; offset < 400; offset += 100)
    all.push(...(await upstreamGet<{ items: Product[] }>(`/products?category=gift-card&limit=100&offset=${offset}`)).items);
  products = all.filter((p) => p.isAvailable && p.variants.length > 0 && p.currency === "USD").slice(0, 6);
  expect(products).toHaveLength(6);
  const ids = products.map((p) => p.id);
  await db().catalogChange.deleteMany({ where: { productId: { in: ids } } });
  await db().catalogPricePoint.deleteMany({ where: { productId: { in: ids } } });
  await db().catalogProductState.deleteMany({ where: { productId: { in: ids } } });
  await db().catalogWatch.deleteMany({});
});

afterAll(async () => {
  for (const product of products) await control("PUT", `/products/${product.id}`, { priceFactor: 1, isAvailable: true });
  await db().catalogWatch.deleteMany({});
});

describe("catalog watch", () => {
  test("a 5 % rise and a loss of availability are recorded once and told once to each watcher, grouped; an unwatched change reaches nobody", async () => {
    const [ann, ben, cat] = [await makeStaff(["buyer"]), await makeStaff(["finance"]), await makeStaff(["buyer"])];
    await addWatch(ann, { productId: p1().id, workspace: false });
    await addWatch(ann, { productId: p2().id, workspace: false });
    // A second click on the same product is the same watch.
    expect((await addWatch(ann, { productId: p2().id, workspace: false })).created).toBe(false);
    await addWatch(ben, { productId: p1().id, workspace: false });
    expect((await listWatches(ann)).map((w) => w.label).sort()).toEqual([p1().name, p2().name].sort());

    await pass(); // the first read: what the products cost now
    expect(await heard(ann)).toEqual([]);
    // A person's catalog reads feed the watch too: p3, watched by nobody, is known from one…
    await getProduct(cat, p3().id);
    await eventually(async () => (await db().catalogProductState.count({ where: { productId: p3().id } })) === 1);
    // …recorded longer ago than a cached answer can be old, so a later read may say what changed since.
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await db().catalogProductState.update({ where: { productId: p3().id }, data: { observedAt: longAgo } });

    await control("PUT", `/products/${p1().id}`, { priceFactor: 1.05 });
    await control("PUT", `/products/${p2().id}`, { priceFactor: 1.05, isAvailable: false });
    await control("PUT", `/products/${p3().id}`, { priceFactor: 1.05 }); // watched by nobody
    await listProducts(cat, { q: p3().name, size: 24, page: 1 }); // the read no cache answers yet
    await eventually(async () => (await changesOf(p3().id)).length > 0);
    await pass();
    await pass(); // nothing new: nothing recorded or told again

    const [rise1, ...more1] = await changesOf(p1().id);
    expect(more1).toEqual([]);
    expect(rise1!.change).toBe("price_rise");
    expect(Number(rise1!.percent)).toBeCloseTo(5, 1); // cents round it

    expect((await changesOf(p2().id)).map((c) => c.change).sort()).toEqual(["price_rise", "unavailable"]);
    expect((await changesOf(p3().id)).map((c) => c.change)).toEqual(["price_rise"]);

    const usd = (amount: number) => `$${amount.toFixed(2)}`;
    const dearest = p1().variants.reduce((a, b) => (b.price > a.price ? b : a));
    // Ann watches both: one message for two products, each line with old and new price or state.
    const [annHeard, ...annMore] = await heard(ann);
    expect(annMore).toEqual([]);
    expect(annHeard!.title).toBe("2 products you watch changed");
    expect(annHeard!.link).toBe("/catalog/watches");
    expect(annHeard!.body).toContain(
      `${p1().name} (${dearest.displayValue}): price rose ${rise1!.percent!.toFixed(2)} %, ${usd(dearest.price)} → `,
    );
    expect(annHeard!.body).toContain(`${p2().name}: now unavailable (was available)`);
    // Ben watches one: its line is the title, the link its page.
    const benHeard = await heard(ben);
    expect(benHeard).toHaveLength(1);
    expect(benHeard[0]!.title).toContain(`${p1().name} (${dearest.displayValue}): price rose ${rise1!.percent!.toFixed(2)} %`);
    expect(benHeard[0]!.link).toBe(`/catalog/${p1().id}`);
    expect(await heard(cat)).toEqual([]);
    expect(await db().notificationEvent.count({ where: { kind: "catalog.changed", title: { contains: p3().name } } })).toBe(0);
    expect(await db().notificationEvent.count({ where: { kind: "catalog.changed", body: { contains: p3().name } } })).toBe(0);
  });

  test("a 1 % move is kept in the history but told to nobody; moves add up until one passes the threshold", async () => {
    const dan = await makeStaff(["buyer"]);
    await addWatch(dan, { productId: p4().id, workspace: false });
    await pass();
    const variant = p4().variants.reduce((a, b) => (b.price > a.price ? b : a));
    const pointsOf = async () =>
      (
        await db().catalogPricePoint.findMany({ where: { productId: p4().id, variantId: variant.id }, orderBy: { id: "asc" } })
      ).map((p) => Number(p.priceMinor));
    const before = await pointsOf();

    await control("PUT", `/products/${p4().id}`, { priceFactor: 1.01 });
    await pass();
    const after = await pointsOf();
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)! / before.at(-1)!).toBeCloseTo(1.01, 2);
    expect(await changesOf(p4().id)).toEqual([]);
    expect(await heard(dan)).toEqual([]);

    // Another 1.5 %: 2.5 % from the price last told, past the 2 % threshold.
    await control("PUT", `/products/${p4().id}`, { priceFactor: 1.025 });
    await pass();
    const [rise, ...more] = await changesOf(p4().id);
    expect(more).toEqual([]);
    expect(rise!.change).toBe("price_rise");
    expect(Number(rise!.percent)).toBeCloseTo(2.5, 1);
    expect(await heard(dan)).toHaveLength(1);
  });

  test("a product new under a watched brand and country is announced to its watcher; a watch stops when asked", async () => {
    const eve = await makeStaff(["buyer"]);
    const watch = await addWatch(eve, {
      productType: "gift-card",
      brand: "Quillwork",
      countryCode: p1().countryCode,
      workspace: false,
    });
    expect(watch.watch.label).toBe(`Quillwork gift cards, ${p1().countryCode}`);
    await pass(); // the brand's first read: nothing of it is new yet
    const added = (await control("POST", "/products", { copyOf: p1().id, name: "Quillwork Gift Card – Test" })) as Product;
    await pass();
    expect((await changesOf(added.id)).map((c) => c.change)).toEqual(["new"]);
    const [told, ...more] = await heard(eve);
    expect(more).toEqual([]);
    expect(told!.title).toBe("Quillwork Gift Card – Test: new in the catalog");

    // Only one's own watch can be stopped, and only by those who may watch.
    const other = await makeStaff(["buyer"]);
    await expect(removeWatch(other, watch.watch.id)).rejects.toMatchObject({ code: "not_found" });
    const viewer = await makeStaff(["viewer"]);
    await expect(addWatch(viewer, { productId: p1().id, workspace: false })).rejects.toMatchObject({ code: "forbidden" });
    await removeWatch(eve, watch.watch.id);
    expect(await listWatches(eve)).toEqual([]);
    await control("PUT", `/products/${added.id}`, { isAvailable: false });
    await pass();
    expect(await heard(eve)).toHaveLength(1);
  });

  test("an admin's watch for the whole workspace reaches everyone who may watch, not those who may not", async () => {
    const admin = await makeStaff(["admin"]);
    const [buyer, support] = [await makeStaff(["buyer"]), await makeStaff(["support"])];
    await addWatch(admin, { productId: p5().id, workspace: true });
    await expect(addWatch(buyer, { productId: p5().id, workspace: true })).rejects.toMatchObject({ code: "forbidden" });
    await pass();
    await control("PUT", `/products/${p5().id}`, { isAvailable: false });
    await pass();
    expect((await heard(buyer)).map((n) => n.title)).toEqual([`${p5().name}: now unavailable (was available)`]);
    expect(await heard(admin)).toHaveLength(1);
    expect(await heard(support)).toEqual([]);
  });

  test("an open spend request and a bulk file's unplaced rows say their price rose since they were priced", async () => {
    const product = p6() as Parameters<typeof orderOf>[0];
    const variant = product.variants[0];
    // A per-order limit below the price: the order waits for approval, priced now.
    const buyer = await limitedBuyer({ perOrder: 1n });
    await addWatch(buyer, { productId: product.id, workspace: false });
    await pass();
    const result = await submitOrder(buyer, orderOf(product, undefined, { approvalReason: "Rewards" }));
    if (result.kind !== "awaiting") throw new Error("expected the order to wait for approval");
    const csv = [
      "productId,variantId,value,quantity,clientReference,phoneNumber",
      ...[1, 2, 3].map((n) => `${product.id},${variant.id},,1,watch-bulk-${n}-${Date.now()},`),
    ].join("\r\n");
    const bulk = await previewBulkOrder(buyer, { fileName: "watch.csv", csv: `${csv}\r\n` });
    const noteOf = async () => (await listSpendRequests(buyer)).find((r) => r.id === result.spendRequestId)?.priceNote;
    expect(await noteOf()).toBeNull();
    expect(await bulkPriceNote(bulk.id)).toBeNull();

    await control("PUT", `/products/${product.id}`, { priceFactor: 1.06 });
    await pass();
    const note = await noteOf();
    expect(note).toMatch(/^The price of 1 line rose (\d+(\.\d)?) % since you asked\.$/);
    expect(Number(/rose ([\d.]+) %/.exec(note!)![1])).toBeCloseTo(6, 0);
    expect(await bulkPriceNote(bulk.id)).toMatch(/^The price of 3 rows rose up to [\d.]+ % since you uploaded\.$/);
  });
});
