import "server-only";
import { db } from "@/lib/db/client";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { logger } from "@/lib/log";
import { upkeepWithoutAutovacuum } from "./upkeep";

export const DB_QUEUES = { upkeep: periodicQueue("db.upkeep", 600) } as const;

/** The embedded database's vacuum and analyze (./upkeep.ts), every 10 minutes; a no-op on a real PostgreSQL. */
export const dbJobs: JobDefinition[] = [
  periodicJob({
    queue: DB_QUEUES.upkeep,
    everySeconds: () => 600,
    run: async () => {
      const done = await upkeepWithoutAutovacuum((sql) => db().$queryRawUnsafe(sql));
      if (done.length) logger.info("database upkeep", { done });
    },
  }),
];
