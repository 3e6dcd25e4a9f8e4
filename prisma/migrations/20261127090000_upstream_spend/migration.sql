-- Who spent the upstream budget: one row per fixed minute and spender ("staff:<id>" or
-- "job:<name>"), by priority class, kept beside "RateBudget" by the same statement that takes
-- a slot (lib/upstream/db-budget.ts). A person's interactive and background calls together
-- are held to their share of the minute; "lookups" (unknown order ids and references) to a
-- smaller one; "refused" counts the calls their share turned away.
CREATE TABLE "UpstreamSpend" (
    "windowStart" TIMESTAMP(3) NOT NULL,
    "spender" TEXT NOT NULL,
    "money" INTEGER NOT NULL DEFAULT 0,
    "interactive" INTEGER NOT NULL DEFAULT 0,
    "background" INTEGER NOT NULL DEFAULT 0,
    "lookups" INTEGER NOT NULL DEFAULT 0,
    "refused" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "UpstreamSpend_pkey" PRIMARY KEY ("windowStart","spender")
);
