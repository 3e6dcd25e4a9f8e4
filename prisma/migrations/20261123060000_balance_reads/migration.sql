-- Balance reads as this app made them (its own clock), the anchors of the wallet chart.
-- CreateTable
CREATE TABLE "BalanceRead" (
    "id" BIGSERIAL NOT NULL,
    "currency" TEXT NOT NULL,
    "availableMinor" BIGINT NOT NULL,
    "readAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BalanceRead_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BalanceRead_currency_readAt_idx" ON "BalanceRead"("currency", "readAt");
