-- Key health (issue 42): each upstream key a process holds, by its public lookup segment.
CREATE TABLE "UpstreamKey" (
    "lookup" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "slot" TEXT NOT NULL,
    "scopes" TEXT[],
    "heldBy" TEXT[],
    "expiresAt" TIMESTAMP(3),
    "inUseSince" TIMESTAMP(3),
    "lastSuccessAt" TIMESTAMP(3),
    "lastRefusalAt" TIMESTAMP(3),
    "lastRefusalStatus" INTEGER,
    "lastRefusalScope" TEXT,
    "lastRefusalMessage" TEXT,
    "announcedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UpstreamKey_pkey" PRIMARY KEY ("lookup")
);

-- A scope refused to a key (403), once per key and scope: the audit row is written on the first.
CREATE TABLE "UpstreamScopeRefusal" (
    "lookup" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "firstAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "count" INTEGER NOT NULL DEFAULT 1,
    CONSTRAINT "UpstreamScopeRefusal_pkey" PRIMARY KEY ("lookup", "scope")
);
