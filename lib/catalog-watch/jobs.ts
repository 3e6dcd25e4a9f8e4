import "server-only";
import { getEnv } from "@/lib/env";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { runWatchPass } from "./run-watch-pass";

/** Reads of one pass are this far apart: at most 12 calls a minute, a tenth of the usual 120. */
const GAP_MS = 5_000;

export const CATALOG_WATCH_QUEUES = { pass: periodicQueue("catalog.watch", 1_800) } as const;

/** The catalog watch's pass, run by the worker every CATALOG_WATCH_INTERVAL_SECONDS (./run-watch-pass.ts). */
export const catalogWatchJobs: JobDefinition[] = [
  periodicJob({
    queue: CATALOG_WATCH_QUEUES.pass,
    everySeconds: () => getEnv().CATALOG_WATCH_INTERVAL_SECONDS,
    run: () => runWatchPass({ gapMs: GAP_MS }),
  }),
];
