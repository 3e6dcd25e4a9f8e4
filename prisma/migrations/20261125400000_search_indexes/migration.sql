-- Fast at 100,000 orders (issues 16 and 17): trigram indexes for the "contains" searches
-- (ILIKE '%…%' on a client reference or an actor's email), indexes in the order each list
-- is sorted, so that a page and its capped count read only what they show, and the
-- wallet chart's sums per slice of time read from an index rather than the order rows.

-- pg_trgm is a trusted extension (PostgreSQL 13+: a database owner may create it; Debian's
-- postgresql package ships it); the embedded PGlite loads it at start-up (lib/db/embedded.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The orders list: newest first by the upstream's time, then id (lib/orders/list-orders.ts).
DROP INDEX "Order_upstreamCreatedAt_idx";
CREATE INDEX "Order_upstreamCreatedAt_id_idx" ON "Order"("upstreamCreatedAt", "id");

-- Filtered by status, in the same order.
CREATE INDEX "Order_status_upstreamCreatedAt_id_idx" ON "Order"("status", "upstreamCreatedAt", "id");

-- Filtered by part of a client reference, any case.
CREATE INDEX "Order_clientReference_trgm_idx" ON "Order" USING GIN ("clientReference" gin_trgm_ops);

-- Filtered by product: an exact product id in any line (JSONB containment), or part of a
-- product name, any case (trigrams of the lines' names as JSON text, a prefilter that
-- lib/orders/list-orders.ts checks line by line).
CREATE INDEX "Order_lines_idx" ON "Order" USING GIN ("lines" jsonb_path_ops);
CREATE INDEX "Order_productNames_trgm_idx" ON "Order"
  USING GIN ((jsonb_path_query_array("lines", '$[*].productName')::text) gin_trgm_ops);

-- The wallet chart (lib/wallet/movement-slices.ts): what each order reserved and released,
-- by currency and this app's time, read from the index alone where PostgreSQL can (a
-- vacuumed table); and the releases of failed and refunded orders placed before the period.
CREATE INDEX "Order_currency_createdAt_idx" ON "Order"("currency", "createdAt")
  INCLUDE ("totalMinor", "status", "upstreamCreatedAt", "upstreamUpdatedAt");
CREATE INDEX "Order_released_currency_updatedAt_idx" ON "Order"("currency", "updatedAt")
  INCLUDE ("createdAt", "upstreamCreatedAt", "upstreamUpdatedAt", "totalMinor")
  WHERE "status" IN ('failed', 'refunded');

-- The audit log filtered by part of an actor's email, any case.
CREATE INDEX "AuditEvent_actorEmail_trgm_idx" ON "AuditEvent" USING GIN ("actorEmail" gin_trgm_ops);
