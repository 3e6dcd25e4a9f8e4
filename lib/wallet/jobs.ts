import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { depositAddressTask } from "./request-deposit-address";

/** The wallet's job: requesting the deposit address for a web process without the payout key. */
export const walletJobs: JobDefinition[] = [depositAddressTask.job];
