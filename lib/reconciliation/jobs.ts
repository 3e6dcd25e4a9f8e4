import "server-only";
import type { JobDefinition, QueueSpec } from "@/lib/jobs/define-job";
import { defineJob } from "@/lib/jobs/define-job";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { utcDay } from "./day-statement";
import { reconcileDay } from "./reconcile-day";

/**
 * One job a day. Retried with backoff when the upstream cannot be read at 00:05 (the read
 * taken later only widens the gap rolled back, reconcile-day.ts); "stately" keeps it to one.
 */
export const RECONCILIATION_QUEUE: QueueSpec = {
  name: "reconciliation.daily",
  options: {
    policy: "stately",
    retryLimit: 6,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 900,
    deleteAfterSeconds: 7 * 86_400,
  },
};

type DailyJob = { scheduled?: boolean };

/**
 * At 00:05 UTC the worker reconciles the day that just closed: its balance read then is
 * the day-end read (movements the app knows of in the five minutes since midnight are
 * rolled back). A worker starting later catches up on yesterday if it has no rows yet.
 */
export const reconciliationJobs: JobDefinition[] = [
  defineJob<DailyJob>({
    queue: RECONCILIATION_QUEUE,
    work: () => ({ pollingIntervalSeconds: 30 }),
    async handle(jobs) {
      for (const job of jobs) {
        const day = utcDay(new Date(), 1);
        if (!job.data?.scheduled && (await db().walletReconciliation.count({ where: { day } }))) continue;
        const rows = await reconcileDay(day);
        logger.info("wallet reconciled", {
          day,
          currencies: rows.length,
          differences: rows.filter((r) => r.status === "difference").length,
        });
      }
    },
    schedule: { cron: "5 0 * * *", data: { scheduled: true }, startup: true },
  }),
];
