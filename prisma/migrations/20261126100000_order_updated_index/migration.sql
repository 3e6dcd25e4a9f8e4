-- The wallet chart's in-memory ledger (lib/wallet/movement-ledger.ts) catches up on each
-- view with the orders of one currency written since it last looked.
CREATE INDEX "Order_currency_updatedAt_idx" ON "Order"("currency", "updatedAt");
