-- Spend controls (issue 15): limits per buyer and currency, the spend each limit counts,
-- the quotes this app issued (so a quote-based order's total is known before it is sent),
-- and the requests a second person approves.

-- CreateTable
CREATE TABLE "SpendLimit" (
    "scope" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "perOrderMinor" BIGINT,
    "perDayMinor" BIGINT,
    "perMonthMinor" BIGINT,
    "updatedById" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpendLimit_pkey" PRIMARY KEY ("scope", "currency"),
    CONSTRAINT "SpendLimit_amounts_positive" CHECK (("perOrderMinor" IS NULL OR "perOrderMinor" > 0) AND ("perDayMinor" IS NULL OR "perDayMinor" > 0) AND ("perMonthMinor" IS NULL OR "perMonthMinor" > 0))
);

-- CreateTable
CREATE TABLE "SpendCharge" (
    "id" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "source" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'held',
    "chargedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpendCharge_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "SpendCharge_amount_positive" CHECK ("amountMinor" >= 0)
);

-- CreateIndex
CREATE UNIQUE INDEX "SpendCharge_source_currency_key" ON "SpendCharge"("source", "currency");

-- CreateIndex
CREATE INDEX "SpendCharge_staffId_currency_chargedAt_idx" ON "SpendCharge"("staffId", "currency", "chargedAt");

-- CreateTable
CREATE TABLE "IssuedQuote" (
    "id" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "item" JSONB NOT NULL,
    "totalMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IssuedQuote_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "IssuedQuote_expiresAt_idx" ON "IssuedQuote"("expiresAt");

-- CreateTable
CREATE TABLE "SpendRequest" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'awaiting',
    "reason" TEXT NOT NULL,
    "why" TEXT NOT NULL,
    "totals" JSONB NOT NULL,
    "approvedTotals" JSONB,
    "previousTotals" JSONB,
    "orderRequest" JSONB,
    "submissionKey" TEXT,
    "bulkOrderId" TEXT,
    "round" INTEGER NOT NULL DEFAULT 1,
    "requestedById" TEXT NOT NULL,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "decidedById" TEXT,
    "decidedAt" TIMESTAMP(3),
    "decisionComment" TEXT,
    "orderId" TEXT,
    "failureCode" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpendRequest_pkey" PRIMARY KEY ("id"),
    -- Maker-checker, held by the database too: nobody decides their own request.
    CONSTRAINT "SpendRequest_decider_not_requester" CHECK ("decidedById" IS NULL OR "decidedById" <> "requestedById")
);

-- CreateIndex
CREATE UNIQUE INDEX "SpendRequest_submissionKey_key" ON "SpendRequest"("submissionKey");

-- CreateIndex
CREATE UNIQUE INDEX "SpendRequest_bulkOrderId_key" ON "SpendRequest"("bulkOrderId");

-- CreateIndex
CREATE INDEX "SpendRequest_state_expiresAt_idx" ON "SpendRequest"("state", "expiresAt");

-- CreateIndex
CREATE INDEX "SpendRequest_requestedById_requestedAt_idx" ON "SpendRequest"("requestedById", "requestedAt");

-- What was asked for is what an approver decides and what is sent: the requester, the kind,
-- the stored order and the bulk file of a spend request never change once written.
CREATE FUNCTION "SpendRequest_immutable_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."requestedById" <> OLD."requestedById" OR NEW."kind" <> OLD."kind"
     OR NEW."orderRequest" IS DISTINCT FROM OLD."orderRequest" OR NEW."bulkOrderId" IS DISTINCT FROM OLD."bulkOrderId" THEN
    RAISE EXCEPTION 'the requester, kind, order and bulk file of spend request % cannot change', OLD."id";
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "SpendRequest_immutable_terms" BEFORE UPDATE ON "SpendRequest"
  FOR EACH ROW EXECUTE FUNCTION "SpendRequest_immutable_terms"();
