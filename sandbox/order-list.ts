import { parseIso } from "./clock";
import { orderView } from "./order-view";
import { pageOf, readPageParams } from "./page";
import { createReader } from "./validate";
import type { OrderStatus, Workspace } from "./state";

// GET /orders: newest first, cursor pagination, filters status (comma list), clientReference,
// createdFromUtc (inclusive) and createdToUtc (exclusive).

const STATUSES: readonly OrderStatus[] = ["reserved", "processing", "fulfilled", "failed", "refunded"];

export function listOrders(ws: Workspace, query: URLSearchParams): Record<string, unknown> {
  const r = createReader();
  const statusText = query.get("status");
  const statuses = statusText === null ? null : statusText.split(",").map((s) => s.trim().toLowerCase());
  if (statuses?.some((s) => !(STATUSES as readonly string[]).includes(s)))
    r.add("status", `Must be one or more of ${STATUSES.join(", ")}.`);
  const fromMs = readTime(query, "createdFromUtc", r.add);
  const toMs = readTime(query, "createdToUtc", r.add);
  const clientReference = query.get("clientReference");
  r.fail("The query parameters are invalid; see errors.");
  const params = readPageParams(query);
  // The Map holds orders in creation (seq) order, so reversing gives newest first without a sort.
  const matching = [...ws.orders.values()]
    .filter(
      (o) =>
        (statuses === null || statuses.includes(o.status)) && (clientReference === null || o.clientReference === clientReference),
    )
    .filter((o) => (fromMs === null || o.createdAtMs >= fromMs) && (toMs === null || o.createdAtMs < toMs))
    .reverse();
  const page = pageOf(matching, params);
  return { ...page, items: page.items.map(orderView) };
}

export function readTime(query: URLSearchParams, name: string, add: (path: string, message: string) => void): number | null {
  const text = query.get(name);
  if (text === null) return null;
  const ms = parseIso(text);
  if (ms === null) add(name, "Must be an ISO 8601 timestamp such as 2025-01-31T12:00:00Z.");
  return ms;
}
