import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { buttonClass } from "@/components/ui/button";
import { requirePageSession } from "@/lib/auth/current";
import { catalogQuerySchema, listProducts, type CatalogQuery } from "@/lib/catalog/list-products";
import { getCatalogFacets } from "@/lib/catalog/catalog-facets";
import { isAppError } from "@/lib/errors";
import { can } from "@/lib/auth/permissions";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { isRateLimited, RetryLater } from "@/components/ui/rate-limited";
import { CatalogFilters } from "@/components/catalog/catalog-filters";
import { productCard } from "@/components/catalog/product-card";
import { watchedAmong } from "@/lib/catalog-watch/manage-watches";
import type { Actor } from "@/lib/auth/actor";
import { ProductCards } from "@/components/catalog/product-cards";
import { Bone, Busy } from "@/components/ui/skeleton";
import { StreamIfSlow } from "@/components/ui/stream-if-slow";
import { pickParams, type SearchParams } from "@/components/ui/search-params";

export const metadata: Metadata = { title: "Catalog" };

export default async function CatalogPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession("catalog.read");
  const raw = await searchParams;
  const query = catalogQuerySchema.parse(pickParams(raw, ["q", "country", "category", "size", "page"]));

  // Neither read is awaited here: the header and the search box show at once, the filters'
  // choices stream in, and so do the products unless they are there at once (a cached page):
  // each can wait seconds on a slow upstream.
  const facets = getCatalogFacets(actor);
  const listing = listProducts(actor, query);
  return (
    <>
      <PageHeader
        title="Catalog"
        description="Gift cards, eSIM plans and phone top-ups from the Issuing Service, featured first. Prices are wholesale, in each product's sell currency."
        actions={
          can(actor.roles, "orders.create") || can(actor.roles, "catalog.watch") ? (
            <>
              {can(actor.roles, "catalog.watch") ? (
                <Link href="/catalog/watches" className={buttonClass("secondary")}>
                  What I watch
                </Link>
              ) : null}
              {can(actor.roles, "orders.create") ? (
                <Link href="/orders/bulk" className={buttonClass("secondary")}>
                  Bulk order from CSV
                </Link>
              ) : null}
            </>
          ) : undefined
        }
      />
      <CatalogFilters facets={facets} />
      {/* Keyed by the query: a slow new search shows the skeleton again instead of the last results. */}
      <StreamIfSlow key={JSON.stringify(query)} ready={listing} fallback={<ResultsSkeleton />}>
        <CatalogResults listing={listing} query={query} raw={raw} actor={actor} />
      </StreamIfSlow>
    </>
  );
}

async function CatalogResults({
  listing,
  query,
  raw,
  actor,
}: {
  listing: ReturnType<typeof listProducts>;
  query: CatalogQuery;
  raw: SearchParams;
  actor: Actor;
}) {
  const result = await listing.then(
    (page) => ({ ok: true as const, page }),
    (error: unknown) => {
      if (!isAppError(error)) throw error;
      return { ok: false as const, error };
    },
  );

  const pageHref = (page: number) => {
    const next = new URLSearchParams(
      Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" && k !== "page" ? [[k, v]] : [])),
    );
    if (page > 1) next.set("page", String(page));
    return next.size ? `/catalog?${next}` : "/catalog";
  };

  if (!result.ok && isRateLimited(result.error)) {
    const what = query.q ? "We could not search the catalog yet" : "We could not load this page of the catalog yet";
    // The way back stays; whether there is a next page is not known until the page is read.
    return (
      <>
        <RetryLater error={result.error} title={what} testId="catalog-retry-later" />
        {query.page > 1 ? <Pages page={query.page} href={pageHref} hasMore={false} /> : null}
      </>
    );
  }
  if (!result.ok) {
    return (
      <Notice
        tone="error"
        title="The catalog could not be loaded"
        correlationId={result.error.correlationId}
        testId="catalog-error"
      >
        {result.error.message}{" "}
        <Link href={pageHref(query.page)} className="font-medium underline">
          Try again
        </Link>
      </Notice>
    );
  }
  if (result.page.items.length === 0) {
    return (
      <div className="rounded-lg bg-white p-10 text-center shadow-sm ring-1 ring-slate-200" data-testid="catalog-empty">
        <p className="text-sm font-medium text-slate-900">No products match these filters.</p>
        <Link href="/catalog" className="mt-2 inline-block text-sm font-medium text-brand-600 hover:underline">
          Clear filters
        </Link>
      </div>
    );
  }
  const watches = can(actor.roles, "catalog.watch")
    ? await watchedAmong(
        actor,
        result.page.items.map((p) => p.id),
      )
    : undefined;
  return (
    <>
      <p className="mb-3 text-sm text-slate-600" aria-live="polite">
        Showing {result.page.offset + 1}–{result.page.offset + result.page.items.length}
        {result.page.hasMore ? "" : ` of ${result.page.offset + result.page.items.length}`}
      </p>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-label="Products">
        <ProductCards cards={result.page.items.map((product) => productCard(product, watches))} />
      </ul>
      <Pages page={query.page} href={pageHref} hasMore={result.page.hasMore} />
    </>
  );
}

/** Previous, this page's number and Next (when there is more, or `hasMore` is not known yet). */
function Pages({ page, href, hasMore }: { page: number; href: (page: number) => string; hasMore: boolean }) {
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between text-sm">
      {page > 1 ? (
        <Link href={href(page - 1)} className="font-medium text-brand-600 hover:underline">
          ← Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-500">Page {page}</span>
      {hasMore ? (
        <Link href={href(page + 1)} className="font-medium text-brand-600 hover:underline">
          Next →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** Cards of the products' size, while the upstream answers. */
function ResultsSkeleton() {
  return (
    <Busy label="Loading products…" showLabel testId="catalog-loading">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
            <Bone className="aspect-[16/10] rounded-none" />
            <div className="space-y-2 p-3">
              <Bone className="h-4 w-3/4" />
              <Bone className="h-3 w-1/2" />
              <Bone className="mt-4 h-4 w-1/3" />
            </div>
          </div>
        ))}
      </div>
    </Busy>
  );
}
