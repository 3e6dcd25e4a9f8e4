-- Second factor (issue 40): authenticator apps (TOTP, RFC 6238) and passkeys (WebAuthn) per
-- person, one-time recovery codes, and the sign-in step a session still owes.

-- CreateTable
CREATE TABLE "SecondFactor" (
    "id" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "totpSecret" TEXT,
    "totpLastStep" BIGINT,
    "credentialId" TEXT,
    "publicKey" BYTEA,
    "signCount" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "confirmedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "SecondFactor_pkey" PRIMARY KEY ("id"),
    -- A TOTP row holds a sealed secret and no credential; a passkey row the reverse.
    CONSTRAINT "SecondFactor_kind_check" CHECK (
        ("kind" = 'totp' AND "totpSecret" IS NOT NULL AND "credentialId" IS NULL)
        OR ("kind" = 'passkey' AND "credentialId" IS NOT NULL AND "publicKey" IS NOT NULL AND "totpSecret" IS NULL)
    )
);

-- CreateTable
CREATE TABLE "RecoveryCode" (
    "id" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RecoveryCode_pkey" PRIMARY KEY ("id")
);

-- AlterTable: null = complete; 'second_factor' or 'enrolment' = the step the session still owes.
ALTER TABLE "StaffSession" ADD COLUMN "pendingStep" TEXT,
ADD COLUMN "firstFactor" TEXT NOT NULL DEFAULT 'password',
ADD COLUMN "challenge" TEXT,
ADD COLUMN "challengeAt" TIMESTAMP(3);

ALTER TABLE "StaffSession" ADD CONSTRAINT "StaffSession_pendingStep_check"
    CHECK ("pendingStep" IS NULL OR "pendingStep" IN ('second_factor', 'enrolment'));

-- CreateIndex
CREATE INDEX "SecondFactor_staffId_idx" ON "SecondFactor"("staffId");

-- CreateIndex
CREATE UNIQUE INDEX "SecondFactor_credentialId_key" ON "SecondFactor"("credentialId");

-- CreateIndex
CREATE INDEX "RecoveryCode_staffId_idx" ON "RecoveryCode"("staffId");

-- CreateIndex
CREATE UNIQUE INDEX "RecoveryCode_codeHash_key" ON "RecoveryCode"("codeHash");

-- AddForeignKey
ALTER TABLE "SecondFactor" ADD CONSTRAINT "SecondFactor_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "Staff"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecoveryCode" ADD CONSTRAINT "RecoveryCode_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "Staff"("id") ON DELETE CASCADE ON UPDATE CASCADE;
