-- When a key's current run of refusals began (issue 50): key health says "Ordering stopped
-- for everyone since 11:32", which the last refusal (moved by every refused call) cannot tell.
ALTER TABLE "UpstreamKey" ADD COLUMN "refusedSince" TIMESTAMP(3);
