-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL,
    "clientReference" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "totalMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "lines" JSONB NOT NULL,
    "upstreamCreatedAt" TIMESTAMP(3) NOT NULL,
    "upstreamUpdatedAt" TIMESTAMP(3) NOT NULL,
    "lastEventAt" TIMESTAMP(3),
    "placedById" TEXT,
    "idempotencyKey" TEXT,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "nextCheckAt" TIMESTAMP(3),
    "checkAttempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "key" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "requestBody" JSONB NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "resultId" TEXT,
    "staffId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "errorCode" TEXT,
    "correlationId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3),
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "payload" JSONB NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "processedAt" TIMESTAMP(3),

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateBudget" (
    "windowStart" TIMESTAMP(3) NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RateBudget_pkey" PRIMARY KEY ("windowStart")
);

-- CreateTable
CREATE TABLE "WalletCredit" (
    "eventId" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "availableBalanceMinor" BIGINT,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WalletCredit_pkey" PRIMARY KEY ("eventId")
);

-- CreateTable
CREATE TABLE "ServiceStatus" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "lastErrorAt" TIMESTAMP(3),
    "lastErrorStatus" INTEGER,
    "lastErrorCode" TEXT,
    "lastErrorPath" TEXT,
    "lastCorrelationId" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ServiceStatus_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Order_idempotencyKey_key" ON "Order"("idempotencyKey");

-- CreateIndex
CREATE INDEX "Order_status_nextCheckAt_idx" ON "Order"("status", "nextCheckAt");

-- CreateIndex
CREATE INDEX "Order_upstreamCreatedAt_idx" ON "Order"("upstreamCreatedAt");

-- CreateIndex
CREATE INDEX "Order_placedById_upstreamCreatedAt_idx" ON "Order"("placedById", "upstreamCreatedAt");

-- CreateIndex
CREATE INDEX "Order_clientReference_idx" ON "Order"("clientReference");

-- CreateIndex
CREATE INDEX "IdempotencyKey_purpose_state_idx" ON "IdempotencyKey"("purpose", "state");

-- CreateIndex
CREATE INDEX "WebhookEvent_state_receivedAt_idx" ON "WebhookEvent"("state", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookEvent_receivedAt_idx" ON "WebhookEvent"("receivedAt");

-- CreateIndex
CREATE INDEX "WalletCredit_occurredAt_idx" ON "WalletCredit"("occurredAt");
