-- The wallet chart's movements summed per currency and instant, kept by triggers on
-- "WalletMovement", so that the chart (lib/wallet/movement-slices.ts) reads a row per instant
-- instead of a row per movement: a history import records its orders at the moment it writes
-- each page, so 200,000 imported orders are 200,000 movements at a few instants. A row holds
-- the instant's sum, how many movements it has and how many of them are not zero; an instant
-- whose movements are all gone has no row.
-- CreateTable
CREATE TABLE "WalletMovementInstant" (
    "currency" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "deltaMinor" BIGINT NOT NULL,
    "movements" INTEGER NOT NULL,
    "changes" INTEGER NOT NULL,

    -- INCLUDE: a period of a currency from the index alone where the table is vacuumed.
    CONSTRAINT "WalletMovementInstant_pkey" PRIMARY KEY ("currency", "at") INCLUDE ("deltaMinor", "movements", "changes")
);

-- Movements written (sign 1) or removed (sign -1), summed per instant and applied in the key's
-- order (two writers of the same instants then wait for each other rather than deadlock); an
-- instant left with no movement loses its row.
CREATE FUNCTION "WalletMovementInstant_apply"(moved "WalletMovement"[], sign INTEGER) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "WalletMovementInstant" AS t ("currency", "at", "deltaMinor", "movements", "changes")
  SELECT m."currency", m."at", sign * sum(m."deltaMinor"), sign * count(*), sign * count(*) FILTER (WHERE m."deltaMinor" <> 0)
  FROM unnest(moved) m GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("currency", "at") DO UPDATE
    SET "deltaMinor" = t."deltaMinor" + EXCLUDED."deltaMinor", "movements" = t."movements" + EXCLUDED."movements",
        "changes" = t."changes" + EXCLUDED."changes";
  DELETE FROM "WalletMovementInstant" t USING unnest(moved) m
  WHERE sign < 0 AND t."currency" = m."currency" AND t."at" = m."at" AND t."movements" = 0;
$$;

-- One statement per statement on "WalletMovement", whatever wrote it: its rows after the statement
-- are added, those before it taken away (an update both; nothing updates a movement today, the
-- triggers that keep them delete and insert). Each trigger names the transition tables it has.
CREATE FUNCTION "WalletMovement_instants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "WalletMovementInstant_apply"(ARRAY(SELECT b::"WalletMovement" FROM before b), -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM "WalletMovementInstant_apply"(ARRAY(SELECT a::"WalletMovement" FROM after a), 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "WalletMovement_instants_inserted" AFTER INSERT ON "WalletMovement"
  REFERENCING NEW TABLE AS after FOR EACH STATEMENT EXECUTE FUNCTION "WalletMovement_instants"();
CREATE TRIGGER "WalletMovement_instants_deleted" AFTER DELETE ON "WalletMovement"
  REFERENCING OLD TABLE AS before FOR EACH STATEMENT EXECUTE FUNCTION "WalletMovement_instants"();
CREATE TRIGGER "WalletMovement_instants_updated" AFTER UPDATE ON "WalletMovement"
  REFERENCING OLD TABLE AS before NEW TABLE AS after FOR EACH STATEMENT EXECUTE FUNCTION "WalletMovement_instants"();

-- The movements already kept.
INSERT INTO "WalletMovementInstant" ("currency", "at", "deltaMinor", "movements", "changes")
SELECT "currency", "at", sum("deltaMinor"), count(*), count(*) FILTER (WHERE "deltaMinor" <> 0)
FROM "WalletMovement" GROUP BY 1, 2;
