-- Deliveries are pg-boss jobs (notifications.send): the job, not the row, holds the lease.
ALTER TABLE "NotificationDelivery" DROP COLUMN "leaseUntil";
