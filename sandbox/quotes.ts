import { audit } from "./audit";
import type { Sandbox } from "./context";
import { newId } from "./ids";
import type { Authenticated } from "./keys";
import { priceItem, readItem, ITEM_FIELDS } from "./pricing";
import type { Quote, Workspace } from "./state";
import { createReader, rejectUnknown, requireObjectBody } from "./validate";

// POST /quotes: validates the item against the product's purchase style, grid and sell currency,
// re-checks availability, and binds the price for quoteTtlSeconds.

export function createQuote(sb: Sandbox, auth: Authenticated, body: unknown, correlationId: string): Quote {
  const ws = auth.workspace;
  const obj = requireObjectBody(body);
  const r = createReader();
  rejectUnknown(r, obj, ITEM_FIELDS);
  const input = readItem(r, obj, "");
  r.fail();
  if (!input) throw new Error("unreachable: item without errors");
  const priced = priceItem(sb, input, "");
  const now = sb.clock.now();
  const quote: Quote = {
    id: newId("quo"),
    productId: priced.product.id,
    variantId: priced.product.range ? null : priced.line.variantId,
    valueCents: input.valueCents,
    line: priced.line,
    totalCents: priced.totalCents,
    currency: priced.line.currency,
    createdAtMs: now,
    expiresAtMs: now + sb.settings.quoteTtlSeconds * 1000,
    usedByOrderId: null,
  };
  ws.quotes.set(quote.id, quote);
  pruneQuotes(ws, now);
  audit(sb, { workspaceId: ws.id, keyId: auth.key.id, action: "quote.create", resourceId: quote.id, correlationId });
  sb.changed();
  return quote;
}

// Expired, unused quotes are forgotten after a day so a long-running sandbox does not accumulate them.
function pruneQuotes(ws: Workspace, now: number): void {
  if (ws.quotes.size < 10_000) return;
  for (const [id, quote] of ws.quotes) {
    if (quote.expiresAtMs + 86_400_000 < now) ws.quotes.delete(id);
  }
}
