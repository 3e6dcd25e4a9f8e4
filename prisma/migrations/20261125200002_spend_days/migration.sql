-- Spend per UTC day and currency: the totals of captured orders (status fulfilled or
-- refunded), by the day the upstream created them. Kept by a trigger on "Order", so every
-- path that writes the mirror (placement, webhooks, sync, import) keeps it exact, and the
-- finance home page reads about thirty rows instead of every order of the month.
-- CreateTable
CREATE TABLE "SpendDay" (
    "day" TIMESTAMP(3) NOT NULL,
    "currency" TEXT NOT NULL,
    "minor" BIGINT NOT NULL DEFAULT 0,
    "orders" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SpendDay_pkey" PRIMARY KEY ("day","currency")
);

CREATE FUNCTION "Order_spend_day"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_counts BOOLEAN := TG_OP <> 'INSERT' AND OLD."status" IN ('fulfilled', 'refunded');
  new_counts BOOLEAN := TG_OP <> 'DELETE' AND NEW."status" IN ('fulfilled', 'refunded');
BEGIN
  IF TG_OP = 'UPDATE' AND old_counts = new_counts AND (NOT new_counts OR (
      date_trunc('day', OLD."upstreamCreatedAt") = date_trunc('day', NEW."upstreamCreatedAt")
      AND OLD."currency" = NEW."currency" AND OLD."totalMinor" = NEW."totalMinor")) THEN
    RETURN NULL;
  END IF;
  IF old_counts THEN
    INSERT INTO "SpendDay" ("day", "currency", "minor", "orders")
    VALUES (date_trunc('day', OLD."upstreamCreatedAt"), OLD."currency", -OLD."totalMinor", -1)
    ON CONFLICT ("day", "currency") DO UPDATE
      SET "minor" = "SpendDay"."minor" + EXCLUDED."minor", "orders" = "SpendDay"."orders" + EXCLUDED."orders";
  END IF;
  IF new_counts THEN
    INSERT INTO "SpendDay" ("day", "currency", "minor", "orders")
    VALUES (date_trunc('day', NEW."upstreamCreatedAt"), NEW."currency", NEW."totalMinor", 1)
    ON CONFLICT ("day", "currency") DO UPDATE
      SET "minor" = "SpendDay"."minor" + EXCLUDED."minor", "orders" = "SpendDay"."orders" + EXCLUDED."orders";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Order_spend_day" AFTER INSERT OR DELETE OR UPDATE OF "status", "totalMinor", "currency", "upstreamCreatedAt"
  ON "Order" FOR EACH ROW EXECUTE FUNCTION "Order_spend_day"();

-- The orders already mirrored.
INSERT INTO "SpendDay" ("day", "currency", "minor", "orders")
SELECT date_trunc('day', "upstreamCreatedAt"), "currency", SUM("totalMinor"), COUNT(*)
FROM "Order" WHERE "status" IN ('fulfilled', 'refunded') GROUP BY 1, 2;
