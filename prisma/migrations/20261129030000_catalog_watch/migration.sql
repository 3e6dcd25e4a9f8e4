-- Catalog watch (issue 56): what staff watch, the last state of each product seen, its price
-- history and the changes watchers hear of.
CREATE TABLE "CatalogWatch" (
    "id" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "workspace" BOOLEAN NOT NULL DEFAULT false,
    "productId" TEXT,
    "productType" TEXT,
    "brand" TEXT,
    "countryCode" TEXT,
    "label" TEXT NOT NULL,
    "baselineAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CatalogWatch_pkey" PRIMARY KEY ("id"),
    -- A watch names one product, or a product type with a brand or a country.
    CONSTRAINT "CatalogWatch_target" CHECK (
        ("productId" IS NOT NULL AND "productType" IS NULL AND "brand" IS NULL AND "countryCode" IS NULL)
        OR ("productId" IS NULL AND "productType" IS NOT NULL AND ("brand" IS NOT NULL OR "countryCode" IS NOT NULL))
    )
);
CREATE UNIQUE INDEX "CatalogWatch_staffId_key_key" ON "CatalogWatch"("staffId", "key");
CREATE INDEX "CatalogWatch_key_idx" ON "CatalogWatch"("key");
ALTER TABLE "CatalogWatch" ADD CONSTRAINT "CatalogWatch_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "Staff"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "CatalogProductState" (
    "productId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "productType" TEXT NOT NULL,
    "countryCode" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "isAvailable" BOOLEAN NOT NULL,
    "prices" JSONB NOT NULL,
    "reference" JSONB NOT NULL,
    "availabilityChangedAt" TIMESTAMP(3),
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "observedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "CatalogProductState_pkey" PRIMARY KEY ("productId")
);

CREATE TABLE "CatalogPricePoint" (
    "id" BIGSERIAL NOT NULL,
    "productId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "faceValue" TEXT NOT NULL,
    "priceMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "observedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CatalogPricePoint_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "CatalogPricePoint_productId_observedAt_idx" ON "CatalogPricePoint"("productId", "observedAt");

CREATE TABLE "CatalogChange" (
    "id" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "productName" TEXT NOT NULL,
    "productType" TEXT NOT NULL,
    "countryCode" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "variantLabel" TEXT,
    "oldPriceMinor" BIGINT,
    "newPriceMinor" BIGINT,
    "currency" TEXT,
    "percent" DECIMAL(8,2),
    "detectedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "notifiedAt" TIMESTAMP(3),
    CONSTRAINT "CatalogChange_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "CatalogChange_change" CHECK ("change" IN ('price_rise', 'price_drop', 'unavailable', 'available', 'new'))
);
CREATE INDEX "CatalogChange_notifiedAt_idx" ON "CatalogChange"("notifiedAt");
CREATE INDEX "CatalogChange_productId_detectedAt_idx" ON "CatalogChange"("productId", "detectedAt");
