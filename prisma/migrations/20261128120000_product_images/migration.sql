-- Product pictures kept by the app (issue 50, lib/catalog/product-images.ts): shared by every app
-- process and instance and kept across restarts, so that a picture costs the upstream one call
-- in days rather than one per process after each start. A row is made when a catalog answer
-- names the reference (only such a reference is ever fetched); the worker fills and revalidates it.
CREATE TABLE "ProductImage" (
    "publicReference" TEXT NOT NULL,
    "contentType" TEXT,
    "body" BYTEA,
    "etag" TEXT,
    -- The last catalog answer that named it (refreshed at most hourly): unnamed for days, it goes.
    "seenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- When a body was last stored, and when the upstream was last asked (a 304 counts).
    "fetchedAt" TIMESTAMP(3),
    "checkedAt" TIMESTAMP(3),

    CONSTRAINT "ProductImage_pkey" PRIMARY KEY ("publicReference")
);

-- The worker's next pictures: those never asked, then those unchecked for a day.
CREATE INDEX "ProductImage_checkedAt_idx" ON "ProductImage"("checkedAt");
CREATE INDEX "ProductImage_seenAt_idx" ON "ProductImage"("seenAt");
