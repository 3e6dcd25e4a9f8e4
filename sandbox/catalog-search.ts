import type { CatalogProduct } from "./catalog";
import type { Sandbox } from "./context";
import { readLimit } from "./page";
import { productJson } from "./product-view";
import { createReader } from "./validate";

// GET /products: filters, featured-then-sortOrder ordering (fixed at catalog build, so pages are stable),
// offset/limit paging, and the designed multi-product refresh `ids=<id>,<id>,…`.

const CATEGORY_ALIASES: Record<string, CatalogProduct["type"]> = {
  "gift-card": "gift-card",
  esim: "esim",
  "top-up": "phone-top-up",
};
export const MAX_IDS = 100;

const MAX_CACHED_PAGES = 2_000;

// Pages are cached as encoded bytes per normalized query; errors are never cached (they throw).
export function searchProductsPage(sb: Sandbox, query: URLSearchParams): Buffer {
  const params = [...query.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const cacheKey = JSON.stringify(params);
  const cached = sb.catalog.pageCache.get(cacheKey);
  if (cached) return cached;
  const page = Buffer.from(searchProductsJson(sb, query));
  if (sb.catalog.pageCache.size >= MAX_CACHED_PAGES) sb.catalog.pageCache.clear();
  sb.catalog.pageCache.set(cacheKey, page);
  return page;
}

function searchProductsJson(sb: Sandbox, query: URLSearchParams): string {
  const r = createReader();
  const idsText = query.get("ids");
  if (idsText !== null) return productsByIdsJson(sb, query, idsText);
  const text = query.get("query")?.trim().toLowerCase() ?? "";
  const countryCode = query.get("countryCode");
  if (countryCode !== null && !/^[A-Za-z]{2}$/.test(countryCode))
    r.add("countryCode", "Must be a two-letter ISO 3166-1 alpha-2 code.");
  const category = query.get("category");
  const offsetText = query.get("offset");
  const offset = offsetText === null ? 0 : Number(offsetText);
  if (offsetText !== null && (!/^\d+$/.test(offsetText) || offset > 1_000_000))
    r.add("offset", "Must be a non-negative integer.");
  const limit = readLimit(query, r.add);
  r.fail("The query parameters are invalid; see errors.");
  const country = countryCode?.toUpperCase() ?? null;
  const alias = category !== null && Object.hasOwn(CATEGORY_ALIASES, category) ? CATEGORY_ALIASES[category] : undefined;
  const matching = sb.catalog.products.filter(
    (p) =>
      (country === null || p.countryCode === country) &&
      (category === null || (alias ? p.type === alias : p.category === category)) &&
      (text === "" || p.name.toLowerCase().includes(text)),
  );
  const items = matching.slice(offset, offset + limit);
  return pageJson(sb, items, offset, limit, offset + items.length < matching.length);
}

// ids= returns the named products in the order asked, silently omitting unknown ids; it stands alone.
function productsByIdsJson(sb: Sandbox, query: URLSearchParams, idsText: string): string {
  const r = createReader();
  for (const other of ["query", "countryCode", "category", "offset", "limit"]) {
    if (query.has(other)) r.add(other, "Cannot be combined with ids.");
  }
  const ids = [
    ...new Set(
      idsText
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) r.add("ids", "Must list at least one product id.");
  if (ids.length > MAX_IDS) r.add("ids", `Must list at most ${MAX_IDS} product ids.`);
  r.fail("The query parameters are invalid; see errors.");
  const items = ids.map((id) => sb.catalog.byId.get(id)).filter((p): p is CatalogProduct => p !== undefined);
  return pageJson(sb, items, 0, ids.length, false);
}

function pageJson(sb: Sandbox, items: CatalogProduct[], offset: number, limit: number, hasMore: boolean): string {
  const parts = items.map((p) => productJson(sb.state, sb.catalog, p));
  return `{"items":[${parts.join(",")}],"offset":${offset},"limit":${limit},"hasMore":${hasMore}}`;
}
