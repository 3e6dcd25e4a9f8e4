-- What a spend request buys, as the buyer asked for it (lib/spend/spend-lines.ts): per line the
-- product and its name, the variant or face value, the quantity, the unit and total price and
-- how and when that price was set. The approver reads it; nothing sends it (the stored order,
-- "orderRequest", is what an approval places). Requests written before have none: their card
-- shows what the stored order says.
ALTER TABLE "SpendRequest" ADD COLUMN "lines" JSONB;

-- What the approver saw is what was asked: the lines never change once written either.
CREATE OR REPLACE FUNCTION "SpendRequest_immutable_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."requestedById" <> OLD."requestedById" OR NEW."kind" <> OLD."kind"
     OR NEW."orderRequest" IS DISTINCT FROM OLD."orderRequest" OR NEW."bulkOrderId" IS DISTINCT FROM OLD."bulkOrderId"
     OR NEW."lines" IS DISTINCT FROM OLD."lines" THEN
    RAISE EXCEPTION 'the requester, kind, order, lines and bulk file of spend request % cannot change', OLD."id";
  END IF;
  RETURN NEW;
END;
$$;
