-- Catalog answers shared by every app process and instance (lib/upstream/shared-read-cache.ts).
CREATE TABLE "SharedReadCache" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SharedReadCache_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "SharedReadCache_expiresAt_idx" ON "SharedReadCache"("expiresAt");
