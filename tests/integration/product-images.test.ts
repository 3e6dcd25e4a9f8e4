import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, test } from "vitest";
import { fetchDueImages, fetchProductImage, PRODUCT_IMAGES_JOB } from "@/lib/catalog/fetch-product-images";
import { getProductImage } from "@/lib/catalog/product-image";
import { listProducts } from "@/lib/catalog/list-products";
import { rememberProductImages } from "@/lib/catalog/remember-product-images";
import { db } from "@/lib/db/client";
import type { Product } from "@/lib/upstream/client";
import { makeStaff } from "../support/db";
import { control, eventually, sandbox, upstreamGet } from "../support/sandbox";

/**
 * Product pictures are kept in the database by the worker's job (lib/catalog): fetched once for
 * every process and restart, never on a person's request, and counted as the job's calls. The
 * upstream is the sandbox; its calls are read from its control plane (GET /_sandbox/calls).
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

type Call = { path: string; at: string };
const imageCalls = async (reference?: string) =>
  ((await control("GET", "/calls")) as { items: Call[] }).items.filter((c) =>
    c.path.startsWith(`/api/v1/catalog-product-images/${reference ?? ""}`),
  );

/** Products of the sandbox's catalog with a picture each, `count` of them from `offset`. */
async function productsWithPictures(count: number, offset = 0): Promise<Product[]> {
  const page = await upstreamGet<{ items: Product[] }>(`/products?limit=100&offset=${offset}`);
  return page.items.filter((p) => p.images.length > 0).slice(0, count);
}
const referenceOf = (product: Product) => product.images[0]!.publicReference;
const referencesOf = (products: Product[]) => products.map(referenceOf);

/** Another app process (or this one after a restart): it holds nothing in memory. */
async function readInAnotherProcess(reference: string) {
  const { stdout } = await run(
    path.join(ROOT, "node_modules/.bin/tsx"),
    ["--conditions=react-server", "tests/integration/read-stored-image.ts", reference],
    { cwd: ROOT, env: process.env },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { contentType: string; etag: string | null; sha256: string } | null;
}

const jobCalls = async () =>
  (await db().upstreamSpend.findMany({ where: { spender: `job:${PRODUCT_IMAGES_JOB}` } })).reduce(
    (sum, row) => sum + row.background,
    0,
  );

beforeEach(async () => {
  // Only what each test records is due: pictures other tests' catalog reads named are left alone.
  await db().productImage.updateMany({ data: { checkedAt: new Date() } });
});

describe("product pictures", () => {
  test("a picture fetched once by the job serves another process and a restart, with no further upstream call", async () => {
    const [product] = await productsWithPictures(1);
    const reference = referenceOf(product!);
    await db().productImage.deleteMany({ where: { publicReference: reference } });
    await rememberProductImages([reference]);

    expect(await fetchProductImage(reference, null)).toBe("stored");
    const direct = await fetch(`${sandbox().baseUrl}/api/v1/catalog-product-images/${reference}`, {
      headers: { "X-Api-Key": sandbox().apiKey },
    });
    const upstreamBytes = new Uint8Array(await direct.arrayBuffer());
    const callsAfterFetch = (await imageCalls(reference)).length;

    const elsewhere = await readInAnotherProcess(reference);
    expect(elsewhere).toEqual({
      contentType: "image/png",
      etag: expect.stringMatching(/^".+"$/),
      sha256: createHash("sha256").update(upstreamBytes).digest("hex"),
    });
    expect((await imageCalls(reference)).length).toBe(callsAfterFetch);
  });

  test("a catalog page read records its cards' pictures for the worker, and only those", async () => {
    const person = await makeStaff(["viewer"]);
    const page = await listProducts(person, { size: 24, page: 3 });
    const cards = page.items.map((p) => (p.images.find((i) => i.isPrimary) ?? p.images[0])!.publicReference);
    const others = page.items.flatMap((p) => p.images.map((i) => i.publicReference)).filter((ref) => !cards.includes(ref));
    expect(cards).toHaveLength(24);
    expect(others.length).toBeGreaterThan(0);

    // Recorded without holding up the page.
    await eventually(async () => (await db().productImage.count({ where: { publicReference: { in: cards } } })) === 24);
    expect(await db().productImage.count({ where: { publicReference: { in: others } } })).toBe(0);
  });

  test("a made-up reference answers no picture, records nothing and costs no upstream call", async () => {
    const person = await makeStaff(["viewer"]);
    const made = `made-up-${Date.now()}`;
    expect(await getProductImage(person, made)).toBeNull();
    // Nothing for the worker to fetch either: only a reference a catalog answer named is ever fetched.
    expect(await db().productImage.findUnique({ where: { publicReference: made } })).toBeNull();
    expect(await fetchDueImages({ spacingMs: 0 })).toBe(0);
    expect(await imageCalls(made)).toEqual([]);
  });

  test("a person's picture costs them nothing; the job's calls are counted as the job's, at background priority", async () => {
    const person = await makeStaff(["viewer"]);
    const products = await productsWithPictures(3, 10);
    await db().productImage.deleteMany({ where: { publicReference: { in: referencesOf(products) } } });
    await rememberProductImages(referencesOf(products));

    // Before the worker: the person is answered without a call.
    for (const product of products) expect(await getProductImage(person, referenceOf(product))).toBeNull();
    const before = await jobCalls();
    expect(await fetchDueImages({ spacingMs: 0 })).toBe(3);
    expect(await jobCalls()).toBe(before + 3);

    for (const product of products) expect((await getProductImage(person, referenceOf(product)))?.contentType).toBe("image/png");
    expect(await db().upstreamSpend.findMany({ where: { spender: `staff:${person.staffId}` } })).toEqual([]);
  });

  test("a pass spreads its calls at the pace it is given rather than sending them at once", async () => {
    const products = await productsWithPictures(3, 20);
    await db().productImage.deleteMany({ where: { publicReference: { in: referencesOf(products) } } });
    await rememberProductImages(referencesOf(products));
    await control("DELETE", "/calls");

    expect(await fetchDueImages({ spacingMs: 400 })).toBe(3);
    const times = (await imageCalls()).map((c) => Date.parse(c.at));
    expect(times).toHaveLength(3);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(390);
  });

  test("a day later a picture is revalidated with its ETag: the 304 keeps the body and marks it checked", async () => {
    const [product] = await productsWithPictures(1, 30);
    const reference = referenceOf(product!);
    await db().productImage.deleteMany({ where: { publicReference: reference } });
    await rememberProductImages([reference]);
    await fetchProductImage(reference, null);
    const stored = await db().productImage.findUniqueOrThrow({ where: { publicReference: reference } });

    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await db().productImage.update({ where: { publicReference: reference }, data: { checkedAt: twoDaysAgo } });
    expect(await fetchDueImages({ spacingMs: 0 })).toBe(1);
    const after = await db().productImage.findUniqueOrThrow({ where: { publicReference: reference } });
    expect(after.body).toEqual(stored.body);
    expect(after.fetchedAt).toEqual(stored.fetchedAt);
    expect(after.checkedAt!.getTime()).toBeGreaterThan(twoDaysAgo.getTime());
  });
});
