import "server-only";
import { defineJob, type JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { askForImages, fetchDueImages, PRODUCT_IMAGES_QUEUE } from "./fetch-product-images";
import { anyImageDue, forgetUnseenImages } from "./product-image-store";

export const CATALOG_QUEUES = {
  imageUpkeep: periodicQueue("catalog.image-upkeep", 300),
} as const;

/**
 * The catalog's pictures, run by the worker: a pass fetches the pictures catalog answers named
 * (asked for by the catalog read that named them, ./remember-product-images.ts); every ten
 * minutes the upkeep drops pictures no answer has named for a week and starts a pass if any is
 * due (revalidation, or a pass that stopped when the upstream was unavailable).
 */
export const catalogJobs: JobDefinition[] = [
  defineJob<object>({
    queue: PRODUCT_IMAGES_QUEUE,
    // PGlite has no NOTIFY, so there the poll is what starts a pass: a new page's pictures wait at most 1 s for it.
    work: (embedded) => ({ batchSize: 1, pollingIntervalSeconds: embedded ? 1 : 2, notifyPollingIntervalSeconds: 2 }),
    handle: async (_jobs, context) => {
      await fetchDueImages({ via: context });
    },
  }),
  periodicJob({
    queue: CATALOG_QUEUES.imageUpkeep,
    everySeconds: () => 600,
    run: async () => {
      const forgotten = await forgetUnseenImages();
      if (await anyImageDue()) await askForImages();
      return { forgotten };
    },
  }),
];
