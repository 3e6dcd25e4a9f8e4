-- The reveal ledger: a reveal's record is committed before the upstream is asked
-- (lib/reveal/start-reveal.ts), so that no reveal can happen upstream without one.
CREATE TABLE "CodeReveal" (
    "id" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "actorEmail" TEXT,
    "ip" TEXT,
    "ticket" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'started',
    "revealCount" INTEGER,
    "errorCode" TEXT,
    "upstreamCorrelationId" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "CodeReveal_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "CodeReveal_state_known" CHECK ("state" IN ('started', 'succeeded', 'failed'))
);

-- CreateIndex
CREATE UNIQUE INDEX "CodeReveal_idempotencyKey_key" ON "CodeReveal"("idempotencyKey");

-- CreateIndex
CREATE INDEX "CodeReveal_staffId_startedAt_idx" ON "CodeReveal"("staffId", "startedAt");

-- CreateIndex
CREATE INDEX "CodeReveal_orderId_startedAt_idx" ON "CodeReveal"("orderId", "startedAt");

-- Who asked, for which order and why never change once written; only the outcome does.
CREATE FUNCTION "CodeReveal_immutable_request"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."staffId" <> OLD."staffId" OR NEW."orderId" <> OLD."orderId" OR NEW."idempotencyKey" <> OLD."idempotencyKey"
     OR NEW."ticket" <> OLD."ticket" OR NEW."reason" <> OLD."reason" OR NEW."startedAt" <> OLD."startedAt" THEN
    RAISE EXCEPTION 'the request of code reveal % cannot change', OLD."id";
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "CodeReveal_immutable_request" BEFORE UPDATE ON "CodeReveal"
  FOR EACH ROW EXECUTE FUNCTION "CodeReveal_immutable_request"();

CREATE FUNCTION "CodeReveal_no_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'CodeReveal rows are kept (they are the record of who saw codes)';
END;
$$;

CREATE TRIGGER "CodeReveal_no_delete" BEFORE DELETE ON "CodeReveal"
  FOR EACH ROW EXECUTE FUNCTION "CodeReveal_no_delete"();
