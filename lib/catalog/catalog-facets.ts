import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentByJob, upstream } from "@/lib/upstream/service";
import { regionName } from "./region-name";
import { observeCatalog } from "@/lib/catalog-watch/observe-catalog";
import { toProductView } from "./product-view";

/**
 * The countries and categories the filters offer. The contract has no endpoint listing
 * them, so they are gathered by walking the catalog (about four pages of 100) on
 * background priority, at most once an hour per instance; concurrent callers share the walk.
 * Countries come named ("GB", "United Kingdom") and in the order of their names: naming them
 * here keeps Intl.DisplayNames, slow to build on a phone, out of the browser. The walk sees every
 * product, so it also keeps each one's facts for the spend report.
 */
export type CatalogFacets = { countries: { code: string; name: string }[]; categories: string[] };

const TTL_MS = 60 * 60_000;
const MAX_PAGES = 20;
const globalForFacets = globalThis as unknown as {
  __facets?: { value?: CatalogFacets; at: number; pending?: Promise<CatalogFacets> };
};
const state = (globalForFacets.__facets ??= { at: 0 });

export async function getCatalogFacets(actor: Actor): Promise<CatalogFacets> {
  assertCan(actor, "catalog.read");
  if (state.value && Date.now() - state.at < TTL_MS) return state.value;
  state.pending ??= walk()
    .then((value) => {
      state.value = value;
      state.at = Date.now();
      return value;
    })
    .finally(() => (state.pending = undefined));
  // A stale list is better than none while the walk runs or if it fails.
  return state.value ?? state.pending.catch(() => ({ countries: [], categories: [] }));
}

async function walk(): Promise<CatalogFacets> {
  const countries = new Set<string>();
  const categories = new Set<string>();
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await upstream().listProducts(
      { offset: page * 100, limit: 100 },
      { priority: "background", deadlineMs: 60_000, by: spentByJob("catalog-facets") },
    );
    observeCatalog(result.items.map(toProductView));
    for (const product of result.items) {
      countries.add(product.countryCode);
      categories.add(product.category);
    }
    if (!result.hasMore) break;
  }
  return {
    countries: [...countries].map((code) => ({ code, name: regionName(code) })).sort((a, b) => a.name.localeCompare(b.name)),
    categories: [...categories].sort((a, b) => a.localeCompare(b)),
  };
}
