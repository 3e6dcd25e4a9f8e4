-- CreateTable
CREATE TABLE "BulkOrder" (
    "id" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "fileName" TEXT,
    "state" TEXT NOT NULL DEFAULT 'draft',
    "rowCount" INTEGER NOT NULL,
    "validCount" INTEGER NOT NULL,
    "totals" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "confirmedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),

    CONSTRAINT "BulkOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BulkOrderRow" (
    "id" TEXT NOT NULL,
    "bulkOrderId" TEXT NOT NULL,
    "rowNumber" INTEGER NOT NULL,
    "input" JSONB NOT NULL,
    "request" JSONB,
    "errors" JSONB,
    "clientReference" TEXT,
    "productName" TEXT,
    "optionLabel" TEXT,
    "quotedTotalMinor" BIGINT,
    "currency" TEXT,
    "idempotencyKey" TEXT,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "orderId" TEXT,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "correlationId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "claimedAt" TIMESTAMP(3),
    "settledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BulkOrderRow_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BulkOrder_createdById_createdAt_idx" ON "BulkOrder"("createdById", "createdAt");

-- CreateIndex
CREATE INDEX "BulkOrder_state_idx" ON "BulkOrder"("state");

-- CreateIndex
CREATE UNIQUE INDEX "BulkOrderRow_idempotencyKey_key" ON "BulkOrderRow"("idempotencyKey");

-- CreateIndex
CREATE INDEX "BulkOrderRow_bulkOrderId_state_idx" ON "BulkOrderRow"("bulkOrderId", "state");

-- CreateIndex
CREATE INDEX "BulkOrderRow_clientReference_idx" ON "BulkOrderRow"("clientReference");

-- CreateIndex
CREATE UNIQUE INDEX "BulkOrderRow_bulkOrderId_rowNumber_key" ON "BulkOrderRow"("bulkOrderId", "rowNumber");

-- AddForeignKey
ALTER TABLE "BulkOrderRow" ADD CONSTRAINT "BulkOrderRow_bulkOrderId_fkey" FOREIGN KEY ("bulkOrderId") REFERENCES "BulkOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;
