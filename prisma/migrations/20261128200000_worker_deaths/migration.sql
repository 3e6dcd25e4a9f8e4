-- A worker's death, recorded by the launcher that supervises it when it sees it die (issue 52):
-- readiness and the pages count that instance out at once rather than after a minute of
-- silence, and the admin's home says when the worker last died and how ("killed by SIGKILL",
-- "exit code 1"). A worker stopped on purpose is not marked.
ALTER TABLE "WorkerHeartbeat" ADD COLUMN "diedAt" TIMESTAMP(3);
ALTER TABLE "WorkerHeartbeat" ADD COLUMN "death" TEXT;
