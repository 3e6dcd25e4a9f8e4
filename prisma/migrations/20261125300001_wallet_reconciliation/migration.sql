-- One UTC day's wallet statement per currency (lib/reconciliation): the app's own records
-- set against the upstream's day-end balance read. Re-running a day replaces its row.
-- CreateTable
CREATE TABLE "WalletReconciliation" (
    "day" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "openingMinor" BIGINT,
    "capturedMinor" BIGINT NOT NULL,
    "capturedCount" INTEGER NOT NULL,
    "refundedMinor" BIGINT NOT NULL,
    "refundedCount" INTEGER NOT NULL,
    "creditedMinor" BIGINT NOT NULL,
    "creditedCount" INTEGER NOT NULL,
    "withdrawnMinor" BIGINT NOT NULL,
    "withdrawnCount" INTEGER NOT NULL,
    "expectedClosingMinor" BIGINT,
    "closingMinor" BIGINT NOT NULL,
    "differenceMinor" BIGINT,
    "readAt" TIMESTAMP(3) NOT NULL,
    "readAsOf" TIMESTAMP(3),
    "readTotalMinor" BIGINT NOT NULL,
    "readAvailableMinor" BIGINT NOT NULL,
    "readReservedMinor" BIGINT NOT NULL,
    "readPendingMinor" BIGINT NOT NULL,
    "afterDayMinor" BIGINT NOT NULL,
    "explanations" JSONB NOT NULL,
    "explanationNote" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WalletReconciliation_pkey" PRIMARY KEY ("day","currency")
);

-- CreateIndex
CREATE INDEX "WalletReconciliation_status_day_idx" ON "WalletReconciliation"("status", "day");
