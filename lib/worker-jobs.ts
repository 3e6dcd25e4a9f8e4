import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { dbJobs } from "@/lib/db/jobs";
import { bulkOrderJobs } from "@/lib/bulk-orders/jobs";
import { catalogJobs } from "@/lib/catalog/jobs";
import { catalogWatchJobs } from "@/lib/catalog-watch/jobs";
import { orderJobs } from "@/lib/orders/jobs";
import { reconciliationJobs } from "@/lib/reconciliation/jobs";
import { webhookJobs } from "@/lib/webhooks/jobs";
import { spendJobs } from "@/lib/spend/jobs";
import { withdrawalJobs } from "@/lib/withdrawals/jobs";
import { upstreamJobs } from "@/lib/upstream/jobs";
import { walletJobs } from "@/lib/wallet/jobs";
import { staffJobs } from "@/lib/staff/jobs";
import { notificationJobs } from "@/lib/notifications/jobs";
import { bookJobs } from "@/lib/books/jobs";

/** Every domain's background jobs: what scripts/worker.ts hands lib/jobs to run. */
export const WORKER_JOBS: readonly JobDefinition[] = [
  ...webhookJobs,
  ...orderJobs,
  ...withdrawalJobs,
  ...walletJobs,
  ...bulkOrderJobs,
  ...spendJobs,
  ...reconciliationJobs,
  ...upstreamJobs,
  ...catalogJobs,
  ...catalogWatchJobs,
  ...notificationJobs,
  ...dbJobs,
  ...staffJobs,
  ...bookJobs,
];
