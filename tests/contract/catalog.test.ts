import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type Json, type TestSandbox } from "./support/client";
import { expectRefused } from "./support/state";
import { allProducts } from "./support/catalog";

let sb: TestSandbox;
let products: Json[];
beforeAll(async () => {
  sb = await startTestSandbox({ rateLimitPerMinute: 100_000 });
  products = await allProducts(sb);
});
afterAll(() => sb.close());

describe("the demo catalog", () => {
  it("holds at least 300 products across the three types, both purchase styles, many countries and currencies", () => {
    expect(products.length).toBeGreaterThanOrEqual(300);
    expect(new Set(products.map((p) => p.type))).toEqual(new Set(["gift-card", "esim", "phone-top-up"]));
    expect(new Set(products.map((p) => p.countryCode)).size).toBeGreaterThan(30);
    expect(new Set(products.map((p) => p.currency)).size).toBeGreaterThanOrEqual(3);
    expect(products.some((p) => !p.isAvailable)).toBe(true);
    expect(products.some((p) => p.isFeatured)).toBe(true);
    for (const p of products) {
      const byVariant = p.variants.length > 0;
      const byValue = p.minimumValue !== null && p.maximumValue !== null && p.valueStep !== null;
      expect(byVariant !== byValue).toBe(true); // exactly one purchase style
      expect(p.images.length).toBeGreaterThan(0);
      expect(p.imageUrl).toBe(p.images.find((i: Json) => i.isPrimary).url);
    }
    expect(products.some((p) => p.variants.length > 0) && products.some((p) => p.minimumValue !== null)).toBe(true);
  });

  it("is the same for the same seed and differs for another seed", async () => {
    const twin = await startTestSandbox();
    const other = await startTestSandbox({ seed: "another" });
    try {
      expect((await twin.api("/products?limit=5")).body).toEqual((await sb.api("/products?limit=5")).body);
      expect((await other.api("/products?limit=5")).body.items[0].id).not.toBe(products[0].id);
    } finally {
      await Promise.all([twin.close(), other.close()]);
    }
  });
});

describe("GET /products", () => {
  it("pages 50 by default, ordered by featured then sortOrder, with stable contiguous pages", async () => {
    const first = await sb.api("/products");
    expect(first.body).toMatchObject({ offset: 0, limit: 50, hasMore: true });
    expect(first.body.items).toHaveLength(50);
    const sorted = [...products].sort((a, b) => Number(b.isFeatured) - Number(a.isFeatured) || a.sortOrder - b.sortOrder);
    expect(products.map((p) => p.id)).toEqual(sorted.map((p) => p.id));
    const again = await sb.api("/products?offset=50&limit=50");
    expect(again.body.items.map((p: Json) => p.id)).toEqual(products.slice(50, 100).map((p) => p.id));
  });

  it("says hasMore false on the last page and returns an empty page past the end", async () => {
    const last = await sb.api(`/products?offset=${products.length - 3}&limit=10`);
    expect(last.body.items).toHaveLength(3);
    expect(last.body.hasMore).toBe(false);
    const exact = await sb.api(`/products?offset=${products.length - 10}&limit=10`);
    expect(exact.body.hasMore).toBe(false);
    const beyond = await sb.api(`/products?offset=${products.length + 5}`);
    expect(beyond.status).toBe(200);
    expect(beyond.body.items).toEqual([]);
  });

  it.each(["0", "101", "abc", "-1", "1.5"])("rejects limit=%s with 400 invalid_request", async (limit) => {
    const res = await expectRefused(sb, () => sb.api(`/products?limit=${limit}`), 400, "invalid_request");
    expect(res.body.errors.limit).toBeDefined();
  });

  it("rejects a negative offset and a malformed countryCode with field errors", async () => {
    const res = await expectRefused(sb, () => sb.api("/products?offset=-5&countryCode=USA"), 400, "invalid_request");
    expect(Object.keys(res.body.errors).sort()).toEqual(["countryCode", "offset"]);
  });

  it("filters by free text on names, case-insensitively", async () => {
    const res = await sb.api("/products?query=PIXEL%20arcade&limit=100");
    expect(res.body.items.length).toBeGreaterThan(0);
    for (const p of res.body.items) expect(p.name.toLowerCase()).toContain("pixel arcade");
  });

  it("filters by country", async () => {
    const res = await sb.api("/products?countryCode=DE&limit=100");
    expect(res.body.items.length).toBe(products.filter((p) => p.countryCode === "DE").length);
    for (const p of res.body.items) expect(p.countryCode).toBe("DE");
  });

  it.each([
    ["gift-card", "gift-card"],
    ["esim", "esim"],
    ["top-up", "phone-top-up"],
  ])("maps the category alias %s to products of type %s", async (alias, type) => {
    const res = await sb.api(`/products?category=${alias}&limit=100`);
    expect(res.body.items.length).toBeGreaterThan(0);
    for (const p of res.body.items) expect(p.type).toBe(type);
  });

  it("matches other categories exactly against the category field", async () => {
    const res = await sb.api(`/products?category=${encodeURIComponent("Food & Drink")}&limit=100`);
    expect(res.body.items.length).toBe(products.filter((p) => p.category === "Food & Drink").length);
    expect((await sb.api("/products?category=food%20%26%20drink")).body.items).toEqual([]);
  });

  it("answers an unknown category or a filter matching nothing with an empty 200 page", async () => {
    for (const q of ["category=no-such-category", "query=zzzzzz", "countryCode=AQ"]) {
      const res = await sb.api(`/products?${q}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ items: [], hasMore: false });
    }
  });

  it("refreshes several products by id in one call, in the order asked, skipping unknown ids", async () => {
    const ids = [products[7].id, "prd_unknown", products[2].id, products[7].id];
    const res = await sb.api(`/products?ids=${ids.join(",")}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: Json) => p.id)).toEqual([products[7].id, products[2].id]);
    expect(res.body.hasMore).toBe(false);
  });

  it("refuses ids= combined with other filters or with more than 100 ids", async () => {
    await expectRefused(sb, () => sb.api(`/products?ids=${products[0].id}&query=x`), 400, "invalid_request");
    const many = Array.from({ length: 101 }, (_, i) => `prd_${i}`).join(",");
    await expectRefused(sb, () => sb.api(`/products?ids=${many}`), 400, "invalid_request");
  });
});

describe("GET /products/{id}", () => {
  it("returns the product with every contract field", async () => {
    const res = await sb.api(`/products/${products[0].id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(products[0]);
    for (const field of [
      "id",
      "type",
      "name",
      "countryCode",
      "currency",
      "isAvailable",
      "variants",
      "minimumValue",
      "maximumValue",
      "valueStep",
      "imageUrl",
      "images",
      "description",
      "terms",
      "category",
      "isFeatured",
      "sortOrder",
    ]) {
      expect(res.body).toHaveProperty(field);
    }
  });

  it("answers 404 not_found for an id outside the catalog", async () => {
    await expectRefused(sb, () => sb.api("/products/prd_does_not_exist"), 404, "not_found");
  });
});

describe("product images", () => {
  it("serves PNG bytes with ETag and Last-Modified, and 304 on revalidation", async () => {
    const url = products[0].images[0].url.replace("/api/v1", "");
    const first = await sb.api(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(
      await (await fetch(`${sb.baseUrl}${products[0].imageUrl}`, { headers: { "X-Api-Key": sb.apiKey } })).arrayBuffer(),
    );
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const etag = first.headers.get("etag");
    const lastModified = first.headers.get("last-modified");
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect(lastModified).toBeTruthy();
    const byEtag = await sb.api(url, { headers: { "If-None-Match": etag as string } });
    expect(byEtag.status).toBe(304);
    expect(byEtag.headers.get("etag")).toBe(etag);
    expect(byEtag.headers.get("x-correlation-id")).toBeTruthy();
    expect((await sb.api(url, { headers: { "If-Modified-Since": lastModified as string } })).status).toBe(304);
    expect((await sb.api(url, { headers: { "If-None-Match": '"other"' } })).status).toBe(200);
  });

  it("keeps an image's ETag stable across calls and requires the API key", async () => {
    const url = products[1].images[0].url.replace("/api/v1", "");
    const [a, b] = [await sb.api(url), await sb.api(url)];
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
    await expectRefused(sb, () => sb.api(url, { key: null }), 401, "unauthorized");
    await expectRefused(sb, () => sb.api("/catalog-product-images/img_nope"), 404, "not_found");
  });
});

describe("the control plane adds a product", () => {
  it("a copy under a new name is listed, searchable and readable with ids of its own; bad input is a 400 and adds nothing", async () => {
    const source = products.find((p) => p.type === "gift-card" && p.variants.length > 0);
    const added = await sb.control("POST", "/products", { copyOf: source.id, name: "Watchful Books Gift Card – Test" });
    expect(added.status).toBe(201);
    expect(added.body.id).not.toBe(source.id);
    expect(added.body).toMatchObject({ type: source.type, countryCode: source.countryCode, isAvailable: true });
    expect(added.body.variants.map((v: Json) => v.price)).toEqual(source.variants.map((v: Json) => v.price));
    const found = await sb.api(`/products?query=watchful&countryCode=${source.countryCode}`);
    expect(found.body.items.map((p: Json) => p.id)).toEqual([added.body.id]);
    expect((await sb.api(`/products/${added.body.id}`)).body.name).toBe("Watchful Books Gift Card – Test");

    expect((await sb.control("POST", "/products", { copyOf: source.id })).status).toBe(400);
    expect((await sb.control("POST", "/products", { copyOf: "prd_nope", name: "X" })).status).toBe(404);
    expect((await sb.control("POST", "/products", { copyOf: source.id, name: "Y", extra: 1 })).status).toBe(400);
    expect((await sb.api(`/products?query=watchful`)).body.items).toHaveLength(1);
  });
});
