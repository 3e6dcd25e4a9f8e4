-- Notifications (issue 41): the event that causes them, one in-app row per recipient, an
-- outbox of deliveries (one per event × recipient × channel, one per event for chat), each
-- person's preferences, and the mail the local catcher caught.

-- CreateTable
CREATE TABLE "NotificationEvent" (
    "id" TEXT NOT NULL,
    "eventKey" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT,
    "link" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NotificationEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "readAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationDelivery" (
    "id" TEXT NOT NULL,
    "deliveryKey" TEXT NOT NULL,
    "eventId" TEXT,
    "channel" TEXT NOT NULL,
    "staffId" TEXT,
    "status" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "digestId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NotificationDelivery_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "NotificationDelivery_channel_check" CHECK ("channel" IN ('email', 'chat')),
    CONSTRAINT "NotificationDelivery_status_check"
        CHECK ("status" IN ('pending', 'sending', 'sent', 'failed', 'held', 'digested', 'dropped')),
    -- An email goes to a person; a chat message to the workspace's channel; a digest (no event) is an email.
    CONSTRAINT "NotificationDelivery_recipient_check" CHECK (
        ("channel" = 'email' AND "staffId" IS NOT NULL)
        OR ("channel" = 'chat' AND "staffId" IS NULL AND "eventId" IS NOT NULL)
    )
);

-- CreateTable
CREATE TABLE "NotificationPreference" (
    "staffId" TEXT NOT NULL,
    "emailKinds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "digest" TEXT NOT NULL DEFAULT 'off',
    "quietStart" INTEGER,
    "quietEnd" INTEGER,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NotificationPreference_pkey" PRIMARY KEY ("staffId"),
    CONSTRAINT "NotificationPreference_digest_check" CHECK ("digest" IN ('off', 'hourly', 'daily'))
);

-- CreateTable
CREATE TABLE "CaughtMail" (
    "id" TEXT NOT NULL,
    "messageId" TEXT,
    "from" TEXT NOT NULL,
    "to" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CaughtMail_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "NotificationEvent_eventKey_key" ON "NotificationEvent"("eventKey");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_eventId_staffId_key" ON "Notification"("eventId", "staffId");

-- CreateIndex: the bell's unread count and the inbox page, newest first
CREATE INDEX "Notification_staffId_readAt_idx" ON "Notification"("staffId", "readAt");

-- CreateIndex
CREATE INDEX "Notification_staffId_createdAt_idx" ON "Notification"("staffId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationDelivery_deliveryKey_key" ON "NotificationDelivery"("deliveryKey");

-- CreateIndex: the delivery job's claim
CREATE INDEX "NotificationDelivery_status_dueAt_idx" ON "NotificationDelivery"("status", "dueAt");

-- CreateIndex: the admin outbox, newest first
CREATE INDEX "NotificationDelivery_updatedAt_idx" ON "NotificationDelivery"("updatedAt");

-- CreateIndex
CREATE INDEX "NotificationDelivery_digestId_idx" ON "NotificationDelivery"("digestId");

-- CreateIndex
CREATE INDEX "NotificationDelivery_eventId_idx" ON "NotificationDelivery"("eventId");

-- CreateIndex
CREATE INDEX "CaughtMail_receivedAt_idx" ON "CaughtMail"("receivedAt");

-- CreateIndex: the catcher keeps one copy of a message resent under the same Message-ID
CREATE UNIQUE INDEX "CaughtMail_messageId_key" ON "CaughtMail"("messageId");

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "NotificationEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "Staff"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationDelivery" ADD CONSTRAINT "NotificationDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "NotificationEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationDelivery" ADD CONSTRAINT "NotificationDelivery_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "Staff"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationDelivery" ADD CONSTRAINT "NotificationDelivery_digestId_fkey" FOREIGN KEY ("digestId") REFERENCES "NotificationDelivery"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationPreference" ADD CONSTRAINT "NotificationPreference_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "Staff"("id") ON DELETE CASCADE ON UPDATE CASCADE;
