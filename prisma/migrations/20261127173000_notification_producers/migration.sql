-- Notification producers (issue 41): what the producers keep so that an observed condition
-- notifies once per episode (lib/wallet/low-balance-alert.ts, lib/approval-notices.ts).

-- One row per currency the wallet has been checked in: whether its available balance was last
-- seen below the low-balance threshold, and how many times it has crossed below (the episode
-- names the notification's event key: wallet.low_balance:<currency>:<episode>).
CREATE TABLE "LowBalanceLatch" (
    "currency" TEXT NOT NULL,
    "low" BOOLEAN NOT NULL DEFAULT false,
    "episode" INTEGER NOT NULL DEFAULT 0,
    "changedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LowBalanceLatch_pkey" PRIMARY KEY ("currency")
);

-- When approvers were told that a request is about to expire undecided (once per request).
ALTER TABLE "SpendRequest" ADD COLUMN "expiryNoticedAt" TIMESTAMP(3);
ALTER TABLE "WithdrawalRequest" ADD COLUMN "expiryNoticedAt" TIMESTAMP(3);
