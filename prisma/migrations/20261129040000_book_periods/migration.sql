-- Closing a month for the accounting export (lib/books). A locked month keeps the movements it
-- booked, each as it was then, so its journal never changes; a movement (or a change of one)
-- that arrives later for it is booked in the first open month, flagged late.

-- CreateTable
CREATE TABLE "BookPeriod" (
    "period" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "lockedById" TEXT NOT NULL,
    "lockedAt" TIMESTAMP(3) NOT NULL,
    "reopenRequestedById" TEXT,
    "reopenRequestedAt" TIMESTAMP(3),
    "reopenReason" TEXT,
    "accounts" JSONB NOT NULL,

    CONSTRAINT "BookPeriod_pkey" PRIMARY KEY ("period"),
    CONSTRAINT "BookPeriod_period_check" CHECK ("period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
    CONSTRAINT "BookPeriod_state_check" CHECK ("state" IN ('locked', 'reopen_requested')),
    CONSTRAINT "BookPeriod_reopen_check" CHECK (("state" = 'reopen_requested') = ("reopenRequestedById" IS NOT NULL))
);

-- CreateTable
CREATE TABLE "BookEntry" (
    "period" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "deltaMinor" BIGINT NOT NULL,
    "feeMinor" BIGINT,
    "reference" TEXT,
    "late" BOOLEAN NOT NULL,

    CONSTRAINT "BookEntry_pkey" PRIMARY KEY ("period","sourceId","kind"),
    CONSTRAINT "BookEntry_period_fkey" FOREIGN KEY ("period") REFERENCES "BookPeriod"("period") ON DELETE CASCADE ON UPDATE CASCADE
);

-- A movement's booked amounts over every period (what is left to book is the rest).
CREATE INDEX "BookEntry_sourceId_kind_idx" ON "BookEntry"("sourceId", "kind");

-- A locked month's journal in its order, a batch at a time.
CREATE INDEX "BookEntry_period_currency_at_sourceId_kind_idx" ON "BookEntry"("period", "currency", "at", "sourceId", "kind");

-- The booked movements of a range in the journal's order (those gone since are booked back).
CREATE INDEX "BookEntry_currency_at_sourceId_kind_idx" ON "BookEntry"("currency", "at", "sourceId", "kind");
