-- Each background worker's heartbeat (issue 52): readiness and the "background work stopped"
-- notice read the newest beat of any instance; a beating worker prunes the rows of long-gone ones.
CREATE TABLE "WorkerHeartbeat" (
    "instance" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "beatAt" TIMESTAMP(3) NOT NULL,
    "working" JSONB NOT NULL DEFAULT '[]',
    CONSTRAINT "WorkerHeartbeat_pkey" PRIMARY KEY ("instance")
);

CREATE INDEX "WorkerHeartbeat_beatAt_idx" ON "WorkerHeartbeat"("beatAt");
