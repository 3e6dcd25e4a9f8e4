-- The spend report (lib/reports): a buyer's own orders of a period by the time this app recorded
-- them. What each ordered product is (type, country, category) is CatalogProductState's, kept
-- from every catalog answer (lib/catalog-watch/record-observations.ts).
-- CreateIndex
CREATE INDEX "Order_placedById_createdAt_idx" ON "Order"("placedById", "createdAt");
