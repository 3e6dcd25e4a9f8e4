-- Every order of the workspace (issue 12): the history import's resumable position and the
-- safety-net sync's high-water mark, one row per upstream (its base URL).
CREATE TABLE "OrderSync" (
    "source" TEXT NOT NULL,
    "importState" TEXT NOT NULL DEFAULT 'running',
    "importCursor" TEXT,
    "importPages" INTEGER NOT NULL DEFAULT 0,
    "importOrders" INTEGER NOT NULL DEFAULT 0,
    "importStartedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "importFinishedAt" TIMESTAMP(3),
    "importLastPageAt" TIMESTAMP(3),
    "callsWindowStart" TIMESTAMP(3),
    "callsInWindow" INTEGER NOT NULL DEFAULT 0,
    "highWaterMark" TIMESTAMP(3),
    "lastSyncAt" TIMESTAMP(3),
    "lastSyncOrders" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderSync_pkey" PRIMARY KEY ("source"),
    CONSTRAINT "OrderSync_importState_check" CHECK ("importState" IN ('running', 'paused', 'done'))
);
