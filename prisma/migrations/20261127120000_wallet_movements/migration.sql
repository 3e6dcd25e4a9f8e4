-- The wallet chart's movements of the available balance, one row each, kept by triggers on the
-- tables that carry them, so that every write (placement, webhooks, sync, an import of many
-- rows in one statement, raw SQL) keeps them exact, and the chart reads one narrow index
-- (lib/wallet/movement-slices.ts, lib/wallet/movement-events.ts) instead of every order of
-- the period, whatever wrote the orders and when.
-- CreateTable
CREATE TABLE "WalletMovement" (
    "sourceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "deltaMinor" BIGINT NOT NULL,

    CONSTRAINT "WalletMovement_pkey" PRIMARY KEY ("sourceId","kind")
);

-- A currency's movements of a period, from the index alone where the table is vacuumed.
CREATE INDEX "WalletMovement_currency_at_idx" ON "WalletMovement"("currency", "at") INCLUDE ("deltaMinor");

-- The rule, once per source (every trigger below and the backfill use these):
-- An order's total was reserved when this app recorded it; a failed order's reservation was
-- released, a refunded order's total came back, as long after that as the upstream's own
-- times say (a difference of two upstream times, so the upstream clock's offset cancels
-- out). Capture on fulfilment moves only the reserved part, not the available balance.
-- Arguments: id, status, totalMinor, currency, createdAt, upstreamCreatedAt, upstreamUpdatedAt.
CREATE FUNCTION "Order_wallet_movements"(TEXT, TEXT, BIGINT, TEXT, TIMESTAMP(3), TIMESTAMP(3), TIMESTAMP(3))
RETURNS TABLE ("sourceId" TEXT, "kind" TEXT, "currency" TEXT, "at" TIMESTAMP(3), "deltaMinor" BIGINT)
LANGUAGE sql IMMUTABLE AS $$
  SELECT $1, m."kind", $4, m."at", m."deltaMinor"
  FROM (VALUES
    ('order', $5, -$3, true),
    (CASE $2 WHEN 'failed' THEN 'order_release' ELSE 'refund' END, $5 + greatest(interval '0', $7 - $6), $3,
     $2 IN ('failed', 'refunded'))
  ) m("kind", "at", "deltaMinor", "moved")
  WHERE m."moved"
$$;

-- A recorded wallet.credited webhook, when this app recorded it.
-- Arguments: eventId, amountMinor, currency, createdAt.
CREATE FUNCTION "WalletCredit_wallet_movements"(TEXT, BIGINT, TEXT, TIMESTAMP(3))
RETURNS TABLE ("sourceId" TEXT, "kind" TEXT, "currency" TEXT, "at" TIMESTAMP(3), "deltaMinor" BIGINT)
LANGUAGE sql IMMUTABLE AS $$
  SELECT $1, 'credit', $3, $4, $2
$$;

-- Only requests the upstream holds (linked to an upstream withdrawal) moved money: the hold
-- began with the first send; one cancelled after sending got its amount back. Paying out
-- moves only the hold. A request never sent (pending, approved, rejected, expired) moved nothing.
-- Arguments: id, amountMinor, currency, upstreamId, sendStartedAt, state, cancelledAt.
CREATE FUNCTION "WithdrawalRequest_wallet_movements"(TEXT, BIGINT, TEXT, TEXT, TIMESTAMP(3), TEXT, TIMESTAMP(3))
RETURNS TABLE ("sourceId" TEXT, "kind" TEXT, "currency" TEXT, "at" TIMESTAMP(3), "deltaMinor" BIGINT)
LANGUAGE sql IMMUTABLE AS $$
  SELECT $1, m."kind", $3, m."at", m."deltaMinor"
  FROM (VALUES
    ('withdrawal', $5, -$2, true),
    ('withdrawal_release', $7, $2, $6 = 'cancelled' AND $7 IS NOT NULL)
  ) m("kind", "at", "deltaMinor", "moved")
  WHERE m."moved" AND $4 IS NOT NULL AND $5 IS NOT NULL
$$;

-- Rows inserted: one INSERT per statement (an import's page, a bulk write), not one per row.
CREATE FUNCTION "Order_wallet_movements_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "WalletMovement"
  SELECT m.* FROM inserted i, LATERAL "Order_wallet_movements"(i."id", i."status", i."totalMinor", i."currency",
                                                               i."createdAt", i."upstreamCreatedAt", i."upstreamUpdatedAt") m;
  RETURN NULL;
END $$;
CREATE TRIGGER "Order_wallet_movements_inserted" AFTER INSERT ON "Order"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "Order_wallet_movements_inserted"();

CREATE FUNCTION "WalletCredit_wallet_movements_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "WalletMovement"
  SELECT m.* FROM inserted i, LATERAL "WalletCredit_wallet_movements"(i."eventId", i."amountMinor", i."currency", i."createdAt") m;
  RETURN NULL;
END $$;
CREATE TRIGGER "WalletCredit_wallet_movements_inserted" AFTER INSERT ON "WalletCredit"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "WalletCredit_wallet_movements_inserted"();

CREATE FUNCTION "WithdrawalRequest_wallet_movements_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "WalletMovement"
  SELECT m.* FROM inserted i,
    LATERAL "WithdrawalRequest_wallet_movements"(i."id", i."amountMinor", i."currency", i."upstreamId", i."sendStartedAt",
                                                 i."state", i."cancelledAt") m;
  RETURN NULL;
END $$;
CREATE TRIGGER "WithdrawalRequest_wallet_movements_inserted" AFTER INSERT ON "WithdrawalRequest"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "WithdrawalRequest_wallet_movements_inserted"();

-- A row updated (only in the columns the rule reads) or deleted: its movements replaced.
CREATE FUNCTION "Order_wallet_movements_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Most writes of an order (a webhook's status, a sync) leave its movements as they were.
  IF TG_OP = 'UPDATE' AND ARRAY(
    SELECT m FROM "Order_wallet_movements"(OLD."id", OLD."status", OLD."totalMinor", OLD."currency", OLD."createdAt",
                                           OLD."upstreamCreatedAt", OLD."upstreamUpdatedAt") m
  ) = ARRAY(
    SELECT m FROM "Order_wallet_movements"(NEW."id", NEW."status", NEW."totalMinor", NEW."currency", NEW."createdAt",
                                           NEW."upstreamCreatedAt", NEW."upstreamUpdatedAt") m
  ) THEN
    RETURN NULL;
  END IF;
  DELETE FROM "WalletMovement" WHERE "sourceId" = OLD."id" AND "kind" IN ('order', 'order_release', 'refund');
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO "WalletMovement"
    SELECT * FROM "Order_wallet_movements"(NEW."id", NEW."status", NEW."totalMinor", NEW."currency", NEW."createdAt",
                                           NEW."upstreamCreatedAt", NEW."upstreamUpdatedAt");
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "Order_wallet_movements_changed" AFTER DELETE
  OR UPDATE OF "id", "status", "totalMinor", "currency", "createdAt", "upstreamCreatedAt", "upstreamUpdatedAt"
  ON "Order" FOR EACH ROW EXECUTE FUNCTION "Order_wallet_movements_changed"();

CREATE FUNCTION "WalletCredit_wallet_movements_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "WalletMovement" WHERE "sourceId" = OLD."eventId" AND "kind" = 'credit';
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO "WalletMovement"
    SELECT * FROM "WalletCredit_wallet_movements"(NEW."eventId", NEW."amountMinor", NEW."currency", NEW."createdAt");
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "WalletCredit_wallet_movements_changed" AFTER DELETE
  OR UPDATE OF "eventId", "amountMinor", "currency", "createdAt"
  ON "WalletCredit" FOR EACH ROW EXECUTE FUNCTION "WalletCredit_wallet_movements_changed"();

CREATE FUNCTION "WithdrawalRequest_wallet_movements_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "WalletMovement" WHERE "sourceId" = OLD."id" AND "kind" IN ('withdrawal', 'withdrawal_release');
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO "WalletMovement"
    SELECT * FROM "WithdrawalRequest_wallet_movements"(NEW."id", NEW."amountMinor", NEW."currency", NEW."upstreamId",
                                                       NEW."sendStartedAt", NEW."state", NEW."cancelledAt");
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "WithdrawalRequest_wallet_movements_changed" AFTER DELETE
  OR UPDATE OF "id", "amountMinor", "currency", "upstreamId", "sendStartedAt", "cancelledAt", "state"
  ON "WithdrawalRequest" FOR EACH ROW EXECUTE FUNCTION "WithdrawalRequest_wallet_movements_changed"();

-- What is already recorded.
INSERT INTO "WalletMovement"
SELECT m.* FROM "Order" o, LATERAL "Order_wallet_movements"(o."id", o."status", o."totalMinor", o."currency", o."createdAt",
                                                            o."upstreamCreatedAt", o."upstreamUpdatedAt") m;
INSERT INTO "WalletMovement"
SELECT m.* FROM "WalletCredit" c, LATERAL "WalletCredit_wallet_movements"(c."eventId", c."amountMinor", c."currency", c."createdAt") m;
INSERT INTO "WalletMovement"
SELECT m.* FROM "WithdrawalRequest" w,
  LATERAL "WithdrawalRequest_wallet_movements"(w."id", w."amountMinor", w."currency", w."upstreamId", w."sendStartedAt",
                                               w."state", w."cancelledAt") m;

-- The wallet chart read orders through these (its sums in SQL and its in-process ledger's
-- catch-up); nothing else does, and every write of an order paid for them.
DROP INDEX "Order_released_currency_updatedAt_idx";
DROP INDEX "Order_currency_updatedAt_idx";
