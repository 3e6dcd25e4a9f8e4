-- One-time links an admin hands out (issue 40): invitations (the account is created when the
-- link is accepted) and password resets of existing people. Only SHA-256 of a token is kept.

-- CreateTable
CREATE TABLE "AccessLink" (
    "id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "roles" "Role"[],
    "staffId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sendCount" INTEGER NOT NULL DEFAULT 1,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "expiredAt" TIMESTAMP(3),

    CONSTRAINT "AccessLink_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "AccessLink_purpose_check" CHECK ("purpose" IN ('invitation', 'password_reset')),
    -- A reset names its person from the start; an invitation names its account once accepted.
    CONSTRAINT "AccessLink_staff_check" CHECK ("purpose" = 'invitation' OR "staffId" IS NOT NULL)
);

-- CreateIndex
CREATE UNIQUE INDEX "AccessLink_tokenHash_key" ON "AccessLink"("tokenHash");
CREATE INDEX "AccessLink_purpose_email_idx" ON "AccessLink"("purpose", "email");
CREATE INDEX "AccessLink_staffId_idx" ON "AccessLink"("staffId");

-- At most one live (neither used nor revoked) link per invited address and per person to reset:
-- a second invitation to the same address is refused, a new reset link revokes the older one.
CREATE UNIQUE INDEX "AccessLink_live_invitation_key" ON "AccessLink"("email")
    WHERE "purpose" = 'invitation' AND "usedAt" IS NULL AND "revokedAt" IS NULL;
CREATE UNIQUE INDEX "AccessLink_live_reset_key" ON "AccessLink"("staffId")
    WHERE "purpose" = 'password_reset' AND "usedAt" IS NULL AND "revokedAt" IS NULL;

-- AddForeignKey
ALTER TABLE "AccessLink" ADD CONSTRAINT "AccessLink_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "Staff"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "AccessLink" ADD CONSTRAINT "AccessLink_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Staff"("id") ON DELETE SET NULL ON UPDATE CASCADE;
