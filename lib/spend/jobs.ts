import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { maintainSpendRequests } from "./maintain-spend-requests";

export const SPEND_QUEUES = { maintain: periodicQueue("spend.maintain", 600) } as const;

/** The spend approvals' job, run by the worker: expire undecided requests, finish interrupted placements. */
export const spendJobs: JobDefinition[] = [
  periodicJob({ queue: SPEND_QUEUES.maintain, everySeconds: () => 15, run: () => maintainSpendRequests() }),
];
