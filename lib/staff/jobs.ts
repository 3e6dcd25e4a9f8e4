import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { expireAccessLinks } from "./access-links/expire-access-links";

export const STAFF_QUEUES = { expireLinks: periodicQueue("staff.expire-links", 600) } as const;

/** Marks and audits invitations and reset links past their expiry, every 5 minutes. */
export const staffJobs: JobDefinition[] = [
  periodicJob({ queue: STAFF_QUEUES.expireLinks, everySeconds: () => 300, run: () => expireAccessLinks() }),
];
