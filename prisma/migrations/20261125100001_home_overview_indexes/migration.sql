-- The home page's figures (lib/overview): support's failed orders of the last day read
-- the failed slice of the mirror by when they failed, not every failed order ever.
CREATE INDEX "Order_status_upstreamUpdatedAt_idx" ON "Order"("status", "upstreamUpdatedAt");

-- A buyer's failed orders of the week: without it the planner walks the creation-time
-- index of every order looking for a buyer's few failures (54 ms at 100,000 orders).
CREATE INDEX "Order_placedById_status_upstreamCreatedAt_idx" ON "Order"("placedById", "status", "upstreamCreatedAt");

-- The workspace's newest reveals and the last day's count, without reading every reveal.
CREATE INDEX "CodeReveal_startedAt_idx" ON "CodeReveal"("startedAt");
