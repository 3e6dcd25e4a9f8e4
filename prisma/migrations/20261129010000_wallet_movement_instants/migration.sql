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

-- Each trigger adds the movements written (sign 1) and takes away those removed (sign -1), summed
-- per instant, in the key's order (two writers of the same instants then wait for each other
-- rather than deadlock); an instant left with no movement loses its row. One statement per
-- statement on "WalletMovement", whatever wrote it.
CREATE FUNCTION "WalletMovement_instants_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "WalletMovementInstant" AS t ("currency", "at", "deltaMinor", "movements", "changes")
  SELECT "currency", "at", sum("deltaMinor"), count(*), count(*) FILTER (WHERE "deltaMinor" <> 0)
  FROM inserted GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("currency", "at") DO UPDATE
    SET "deltaMinor" = t."deltaMinor" + EXCLUDED."deltaMinor", "movements" = t."movements" + EXCLUDED."movements",
        "changes" = t."changes" + EXCLUDED."changes";
  RETURN NULL;
END $$;
CREATE TRIGGER "WalletMovement_instants_inserted" AFTER INSERT ON "WalletMovement"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "WalletMovement_instants_inserted"();

CREATE FUNCTION "WalletMovement_instants_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "WalletMovementInstant" t
  SET "deltaMinor" = t."deltaMinor" - d."deltaMinor", "movements" = t."movements" - d."movements", "changes" = t."changes" - d."changes"
  FROM (
    SELECT "currency", "at", sum("deltaMinor") AS "deltaMinor", count(*) AS "movements",
           count(*) FILTER (WHERE "deltaMinor" <> 0) AS "changes"
    FROM deleted GROUP BY 1, 2 ORDER BY 1, 2
  ) d
  WHERE t."currency" = d."currency" AND t."at" = d."at";
  DELETE FROM "WalletMovementInstant" t USING deleted d
  WHERE t."currency" = d."currency" AND t."at" = d."at" AND t."movements" = 0;
  RETURN NULL;
END $$;
CREATE TRIGGER "WalletMovement_instants_deleted" AFTER DELETE ON "WalletMovement"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "WalletMovement_instants_deleted"();

-- Nothing updates a movement today (the triggers that keep them delete and insert), but one that
-- is updated is taken away as it was and added as it is.
CREATE FUNCTION "WalletMovement_instants_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "WalletMovementInstant" AS t ("currency", "at", "deltaMinor", "movements", "changes")
  SELECT "currency", "at", sum("deltaMinor"), sum("movements"), sum("changes")
  FROM (
    SELECT "currency", "at", -"deltaMinor" AS "deltaMinor", -1 AS "movements", -("deltaMinor" <> 0)::int AS "changes" FROM before
    UNION ALL
    SELECT "currency", "at", "deltaMinor", 1, ("deltaMinor" <> 0)::int FROM after
  ) m
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("currency", "at") DO UPDATE
    SET "deltaMinor" = t."deltaMinor" + EXCLUDED."deltaMinor", "movements" = t."movements" + EXCLUDED."movements",
        "changes" = t."changes" + EXCLUDED."changes";
  DELETE FROM "WalletMovementInstant" t USING before b
  WHERE t."currency" = b."currency" AND t."at" = b."at" AND t."movements" = 0;
  RETURN NULL;
END $$;
CREATE TRIGGER "WalletMovement_instants_updated" AFTER UPDATE ON "WalletMovement"
  REFERENCING OLD TABLE AS before NEW TABLE AS after FOR EACH STATEMENT EXECUTE FUNCTION "WalletMovement_instants_updated"();

-- The movements already kept.
INSERT INTO "WalletMovementInstant" ("currency", "at", "deltaMinor", "movements", "changes")
SELECT "currency", "at", sum("deltaMinor"), count(*), count(*) FILTER (WHERE "deltaMinor" <> 0)
FROM "WalletMovement" GROUP BY 1, 2;
