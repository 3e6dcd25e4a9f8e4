import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { maintainWithdrawals } from "./maintain-withdrawals";

export const WITHDRAWAL_QUEUES = { maintain: periodicQueue("withdrawals.maintain", 600) } as const;

/** The withdrawals' jobs, run by the worker: expire, send, resolve and sync (maintain-withdrawals.ts). */
export const withdrawalJobs: JobDefinition[] = [
  periodicJob({ queue: WITHDRAWAL_QUEUES.maintain, everySeconds: () => 15, run: () => maintainWithdrawals() }),
];
