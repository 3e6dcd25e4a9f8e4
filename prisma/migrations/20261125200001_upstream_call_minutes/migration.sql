-- Per-minute counters of upstream calls by priority and outcome, plus the read cache's hits
-- and misses and the budget's waits, for the admin's home page (issue 16). Kept a few days.
-- CreateTable
CREATE TABLE "UpstreamCallMinute" (
    "minute" TIMESTAMP(3) NOT NULL,
    "priority" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "UpstreamCallMinute_pkey" PRIMARY KEY ("minute","priority","outcome")
);
