import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { deliverJournal } from "./deliver-journal";

/** A pass every minute: a month's journal goes out within a minute of the month's end, or of finance choosing who gets it. */
export const bookJobs: JobDefinition[] = [
  periodicJob({ queue: periodicQueue("books.deliver-journal", 300), everySeconds: () => 60, run: () => deliverJournal() }),
];
