import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/auth/actor";
import { orderCursorSchema, orderFilterSchema, type OrderFilter } from "@/lib/orders/list-orders";
import { searchOrders } from "@/lib/orders/search-orders";
import { findOrderById } from "@/lib/orders/find-order-by-id";
import { looksLikeOrderId, looksLikeOrderIdStart } from "@/lib/orders/order-id-shape";
import { isAppError } from "@/lib/errors";
import { rateLimitedAsValue, RetryLater } from "@/components/ui/rate-limited";
import { listStaff } from "@/lib/staff/list-staff";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { OrderFilters, type KeptFilter } from "@/components/orders/order-filters";
import { OrdersTable } from "@/components/orders/orders-table";
import { revealCounts } from "@/lib/reveal/reveal-history";
import { OrdersTableSkeleton } from "@/components/orders/orders-table-skeleton";
import { countOrdersCapped } from "@/lib/orders/count-orders";
import { keysetPager, Pager } from "@/components/ui/pager";
import { pickParams, validCursor, type SearchParams } from "@/components/ui/search-params";
import { StreamIfSlow } from "@/components/ui/stream-if-slow";

export const metadata: Metadata = { title: "Orders" };

const FIELD_LABELS: Record<string, string> = {
  q: "search",
  status: "status",
  from: "from date",
  to: "to date",
  product: "product",
  placedBy: "placed by",
  reference: "client reference",
  origin: "origin",
  cursor: "page position",
};
const PAGE_SIZE = 50;
const FILTER_KEYS = ["q", "from", "to", "product", "placedBy", "reference", "origin"] as const;

/** Drops only the filters that are not valid (and says which), keeping the rest. */
function lenientFilter(raw: SearchParams): { filter: OrderFilter; ignored: string[] } {
  const input: Record<string, unknown> = { status: raw.status, ...pickParams(raw, FILTER_KEYS) };
  const ignored: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const parsed = orderFilterSchema.safeParse(input);
    if (parsed.success) return { filter: parsed.data, ignored };
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "");
      if (key in input && input[key] !== undefined) {
        ignored.push(key);
        input[key] = undefined;
      }
    }
  }
  return { filter: { product: undefined, reference: undefined, origin: undefined }, ignored };
}

/** Older links' `reference` and `product`, which the one search box replaced: kept, said, and removable. */
function keptFilters(filter: OrderFilter, query: URLSearchParams): KeptFilter[] {
  const labels = { reference: "client reference", product: "product" } as const;
  return (["reference", "product"] as const).flatMap((name) => {
    const value = filter[name];
    if (!value) return [];
    const rest = new URLSearchParams(query);
    rest.delete(name);
    return [{ name, label: labels[name], value, removeHref: rest.size ? `/orders?${rest}` : "/orders" }];
  });
}

/** The filter as a query string, statuses repeated, for links that keep it (pages, export). */
function filterQuery(filter: OrderFilter): URLSearchParams {
  const query = new URLSearchParams();
  for (const status of filter.status ?? []) query.append("status", status);
  for (const key of FILTER_KEYS) if (filter[key]) query.set(key, filter[key]);
  return query;
}

export default async function OrdersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession("orders.read");
  const raw = await searchParams;
  const { filter, ignored } = lenientFilter(raw);
  const { given, cursor } = validCursor(raw, "cursor", orderCursorSchema);
  if (given && !cursor) ignored.push("cursor");
  const staff = can(actor.roles, "staff.read") ? await listStaff(actor) : null;
  const query = filterQuery(filter);

  // An order id in the search box goes to the order, asked of the upstream as its page asks.
  const searchedId = filter.q && looksLikeOrderId(filter.q) && !cursor ? filter.q : null;
  const found = searchedId ? await findOrderById(actor, searchedId).catch(rateLimitedAsValue) : null;
  if (typeof found === "string") redirect(`/orders/${encodeURIComponent(found)}`);
  const results = loadOrders(actor, filter, cursor, !searchedId);

  return (
    <>
      <PageHeader
        title="Orders"
        description="Orders placed at the Issuing Service, newest first, as this app last heard of them."
        actions={
          <>
            <a
              href={`/api/orders/export?${query}`}
              download
              className="rounded-md bg-white px-3.5 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
              data-testid="orders-export"
            >
              Export CSV
            </a>
            {can(actor.roles, "orders.create") ? (
              <Link
                href="/catalog"
                className="rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
                data-testid="place-order-link"
              >
                Place an order
              </Link>
            ) : null}
          </>
        }
      />
      <OrderFilters
        values={filter}
        staff={staff?.map(({ id, name, email }) => ({ id, name, email })) ?? null}
        selfId={actor.staffId}
        kept={keptFilters(filter, query)}
      />
      {isAppError(found) ? (
        <div className="mb-4">
          <RetryLater error={found} title="We could not check this id yet" testId="orders-rate-limited" />
        </div>
      ) : null}
      {ignored.length ? (
        <Notice className="mb-4" tone="warning" testId="orders-filter-ignored">
          Some filters were not valid and were ignored: {[...new Set(ignored)].map((k) => FIELD_LABELS[k] ?? k).join(", ")}.
        </Notice>
      ) : null}
      {/* The form paints at once; the rows with it when they are quick, else they stream in (a new
          key shows the skeleton again on each slow new filter or page). */}
      <StreamIfSlow key={`${query}|${cursor ?? ""}`} ready={results} fallback={<OrdersTableSkeleton />}>
        <OrdersResults
          actor={actor}
          results={results}
          query={query}
          cursor={cursor}
          search={filter.q}
          idSearch={searchedId ? (found === null ? "unknown" : "unchecked") : null}
        />
      </StreamIfSlow>
    </>
  );
}

/**
 * A page of orders with its count and reveal counts, or the refusal when the upstream could not
 * be asked yet about a search the mirror has no order for (the person's share of the minute).
 */
async function loadOrders(
  actor: Actor,
  filter: OrderFilter,
  cursor: string | undefined,
  /** False when the page has already asked the upstream (an id-shaped search). */
  lookup: boolean,
) {
  // The search first: it may mirror an order found at the upstream, which the count then includes.
  const searched = await searchOrders(actor, filter, { cursor, limit: PAGE_SIZE }, { lookup }).catch(rateLimitedAsValue);
  if (isAppError(searched)) return searched;
  const [count, revealed] = await Promise.all([countOrdersCapped(actor, filter), revealCounts(searched.rows.map((r) => r.id))]);
  return { ...searched, count, reveals: Object.fromEntries(revealed) };
}

async function OrdersResults({
  actor,
  results,
  query,
  cursor,
  search,
  idSearch,
}: {
  actor: Actor;
  results: ReturnType<typeof loadOrders>;
  query: URLSearchParams;
  cursor?: string;
  /** The search box's text, for the empty state to speak of an order id when it is (part of) one. */
  search?: string;
  /**
   * For a search that is a whole order id the mirror lacks: no order has it (`unknown`), or the
   * upstream could not be asked yet (`unchecked`: the notice above counts down).
   */
  idSearch: "unknown" | "unchecked" | null;
}) {
  const loaded = await results;
  // Never "No orders match" while the upstream could not be asked: it may know the order.
  if (isAppError(loaded))
    return <RetryLater error={loaded} title="We could not check this client reference yet" testId="orders-rate-limited" />;
  if (loaded.rows.length === 0 && idSearch === "unchecked") return null;
  const { rows, nextCursor, lookedUp, count, reveals } = loaded;
  const filtered = query.size > 0;
  const pager = keysetPager("/orders", query, { cursor, nextCursor, shown: rows.length }, count, {
    noun: ["order", "orders"],
    older: "Older orders →",
    olderTestId: "orders-older",
  });
  return (
    <>
      {idSearch === "unknown" ? (
        <Notice className="mb-4" tone="warning" title="No order with this id" testId="orders-no-such-id">
          Neither this back-office nor the Issuing Service knows an order <span className="font-mono">{search}</span> in this
          workspace.{" "}
          {rows.length
            ? "Below: the orders whose id begins with it, or whose client reference or product holds it."
            : "Check the id, or search by the client reference."}
        </Notice>
      ) : null}
      {rows.length === 0 ? (
        <div
          className="rounded-lg bg-white p-8 text-center text-sm text-slate-600 shadow-sm ring-1 ring-slate-200"
          data-testid="orders-empty"
        >
          {filtered || cursor ? (
            <>
              <p>No orders match these filters.</p>
              {search && looksLikeOrderIdStart(search) ? (
                <p className="mt-1">
                  No order id here begins with <span className="font-mono">{search}</span>. The Issuing Service can only be asked
                  for a whole order id: paste the whole id to ask it.
                </p>
              ) : lookedUp ? (
                <p className="mt-1">
                  The Issuing Service has no order with exactly this client reference in this workspace either.
                </p>
              ) : null}
              <Link href="/orders" className="mt-2 inline-block font-medium text-brand-600 hover:underline">
                Clear filters
              </Link>
            </>
          ) : (
            <>
              <p>No orders yet.</p>
              {can(actor.roles, "orders.create") ? (
                <Link href="/catalog" className="mt-2 inline-block font-medium text-brand-600 hover:underline">
                  Find a product in the catalog
                </Link>
              ) : null}
            </>
          )}
        </div>
      ) : (
        <OrdersTable rows={rows} reveals={reveals} />
      )}
      <Pager name={{ label: "Pages of orders", testId: "orders-total" }} {...pager} />
    </>
  );
}
