import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { spentByJob } from "@/lib/upstream/service";
import { readBalances } from "./read-balances";
import { depositAddressTask } from "./request-deposit-address";

export const WALLET_QUEUES = { lowBalance: periodicQueue("wallet.low-balance", 120) } as const;

/** How often the worker reads the balance itself: one background call per pass. */
const LOW_BALANCE_EVERY_SECONDS = 120;

/**
 * The wallet's jobs: requesting the deposit address for a web process without the payout key,
 * and the low-balance watch. Every balance read checks the threshold
 * (lib/wallet/low-balance-alert.ts), and a process that placed an order reads afresh next
 * time; this read is for when nobody else reads, so finance hears within two minutes anyway.
 */
export const walletJobs: JobDefinition[] = [
  depositAddressTask.job,
  periodicJob({
    queue: WALLET_QUEUES.lowBalance,
    everySeconds: () => LOW_BALANCE_EVERY_SECONDS,
    run: () => readBalances({ fresh: true, priority: "background", deadlineMs: 30_000, by: spentByJob("low-balance") }),
  }),
];
