-- CreateTable
CREATE TABLE "WithdrawalRequest" (
    "id" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "feeMinor" BIGINT NOT NULL,
    "netMinor" BIGINT NOT NULL,
    "quotedPayoutAt" TIMESTAMP(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "requestedById" TEXT NOT NULL,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "decidedById" TEXT,
    "decidedAt" TIMESTAMP(3),
    "decisionComment" TEXT,
    "sendStartedAt" TIMESTAMP(3),
    "lastSendAt" TIMESTAMP(3),
    "sendAttempts" INTEGER NOT NULL DEFAULT 0,
    "leaseUntil" TIMESTAMP(3),
    "nextCheckAt" TIMESTAMP(3),
    "upstreamId" TEXT,
    "upstreamStatus" TEXT,
    "upstreamRequestedAt" TIMESTAMP(3),
    "payoutDate" TIMESTAMP(3),
    "paidAt" TIMESTAMP(3),
    "cancelledById" TEXT,
    "cancelledAt" TIMESTAMP(3),
    "failureCode" TEXT,
    "failureMessage" TEXT,
    "correlationId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WithdrawalRequest_pkey" PRIMARY KEY ("id"),
    -- Maker-checker, held by the database too: nobody decides their own request.
    CONSTRAINT "WithdrawalRequest_decider_not_requester" CHECK ("decidedById" IS NULL OR "decidedById" <> "requestedById"),
    CONSTRAINT "WithdrawalRequest_amount_positive" CHECK ("amountMinor" > 0)
);

-- CreateIndex
CREATE UNIQUE INDEX "WithdrawalRequest_upstreamId_key" ON "WithdrawalRequest"("upstreamId");

-- CreateIndex
CREATE INDEX "WithdrawalRequest_state_nextCheckAt_idx" ON "WithdrawalRequest"("state", "nextCheckAt");

-- CreateIndex
CREATE INDEX "WithdrawalRequest_requestedAt_idx" ON "WithdrawalRequest"("requestedAt");

-- CreateIndex
CREATE INDEX "WithdrawalRequest_currency_state_idx" ON "WithdrawalRequest"("currency", "state");

-- AddForeignKey
ALTER TABLE "WithdrawalRequest" ADD CONSTRAINT "WithdrawalRequest_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "Staff"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WithdrawalRequest" ADD CONSTRAINT "WithdrawalRequest_decidedById_fkey" FOREIGN KEY ("decidedById") REFERENCES "Staff"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WithdrawalRequest" ADD CONSTRAINT "WithdrawalRequest_cancelledById_fkey" FOREIGN KEY ("cancelledById") REFERENCES "Staff"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- What was requested (and, later, approved) is what is sent: the amount, currency and
-- requester of a withdrawal request never change once written.
CREATE FUNCTION "WithdrawalRequest_immutable_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."amountMinor" <> OLD."amountMinor" OR NEW."currency" <> OLD."currency" OR NEW."requestedById" <> OLD."requestedById" THEN
    RAISE EXCEPTION 'the amount, currency and requester of withdrawal request % cannot change', OLD."id";
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "WithdrawalRequest_immutable_terms" BEFORE UPDATE ON "WithdrawalRequest"
  FOR EACH ROW EXECUTE FUNCTION "WithdrawalRequest_immutable_terms"();
