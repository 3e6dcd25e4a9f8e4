-- The spend report (lib/reports): the catalog's facts of each product an order names, kept from
-- catalog reads, and a buyer's own orders of a period by the time this app recorded them.
-- CreateTable
CREATE TABLE "CatalogProduct" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "countryCode" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CatalogProduct_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Order_placedById_createdAt_idx" ON "Order"("placedById", "createdAt");
