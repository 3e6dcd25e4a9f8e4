-- The home page's figures (lib/overview): support's failed orders of the last day read
-- the failed slice of the mirror by when they failed, not every failed order ever.
CREATE INDEX "Order_status_upstreamUpdatedAt_idx" ON "Order"("status", "upstreamUpdatedAt");

-- The workspace's newest reveals and the last day's count, without reading every reveal.
CREATE INDEX "CodeReveal_startedAt_idx" ON "CodeReveal"("startedAt");
