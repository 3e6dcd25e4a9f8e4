import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { maintainWithdrawals } from "./maintain-withdrawals";
import { cancelHeld, sendApproved } from "./payout-tasks";

export const WITHDRAWAL_QUEUES = { maintain: periodicQueue("withdrawals.maintain", 600) } as const;

/**
 * The withdrawals' jobs, run by the worker: expire, send, resolve and sync (maintain-withdrawals.ts),
 * and the sends and cancellations a web process without the payout key hands over (payout-tasks.ts).
 */
export const withdrawalJobs: JobDefinition[] = [
  periodicJob({ queue: WITHDRAWAL_QUEUES.maintain, everySeconds: () => 15, run: () => maintainWithdrawals() }),
  sendApproved.job,
  cancelHeld.job,
];
