import "server-only";
import type { QueueSpec, Jobs } from "@/lib/jobs/define-job";
import { sendJob } from "@/lib/jobs/send-job";
import { serviceConfig } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { spentByJob, upstream } from "@/lib/upstream/service";
import { markImageChecked, markImageGone, nextDueImage, storeImage } from "./product-image-store";

/**
 * The worker's picture fetcher: it asks the upstream for the pictures catalog answers have named
 * and the app does not hold yet, then for those unchecked for a day (with their ETag). Every
 * call is the job's (`spentByJob`), at background priority, never a person's share.
 *
 * Paced within the background class so that it never starves people's reads: at most a quarter
 * of the minute's calls (30 at 120), one call every 2 s rather than in a burst, so a minute the
 * pictures share still leaves people their reads. Stately under one key: at most one pass
 * waiting and one running, however many catalog pages ask.
 */
export const PRODUCT_IMAGES_QUEUE: QueueSpec = {
  name: "catalog.product-images",
  options: { policy: "stately", retryLimit: 0, expireInSeconds: 900, deleteAfterSeconds: 3_600 },
  notify: true,
};

/** The job the pictures' calls are counted under (the admin home's spenders). */
export const PRODUCT_IMAGES_JOB = "catalog.product-images";

const PASS_KEY = "pass";
/** A pass hands over to a fresh one after this long, well inside its queue's expiry. */
const PASS_RUN_MS = 5 * 60_000;

/** Asks a worker for a pass; not awaited by anyone (the references are already recorded). */
export function askForImages(via?: Jobs): Promise<void> {
  return sendJob(PRODUCT_IMAGES_QUEUE, {}, { singletonKey: PASS_KEY }, via).then(
    () => undefined,
    (error: unknown) =>
      logger.warn("picture pass not requested; the upkeep job will ask again", {
        error: error instanceof Error ? error.message : String(error),
      }),
  );
}

/** The pictures' pace: calls a minute, a quarter of the upstream's limit. */
export function imageCallsPerMinute(): number {
  return Math.max(1, Math.floor(serviceConfig().rateLimit / 4));
}

export type FetchOutcome = "stored" | "unchanged" | "gone" | "unavailable";

/**
 * One picture from the upstream: stored, confirmed unchanged by a 304, or recorded as gone
 * (404, not an image, too large). "unavailable" (the upstream failing or the minute full)
 * changes nothing: the picture stays due.
 */
export async function fetchProductImage(publicReference: string, etag: string | null): Promise<FetchOutcome> {
  try {
    const res = await upstream().getProductImage(publicReference, etag ?? undefined, {
      priority: "background",
      // Waits for a minute with room rather than failing: nobody is waiting on it.
      deadlineMs: 90_000,
      by: spentByJob(PRODUCT_IMAGES_JOB),
    });
    if (res.status === 304) {
      await markImageChecked(publicReference);
      return "unchanged";
    }
    const contentType = res.headers.get("content-type") ?? "";
    if (!contentType.startsWith("image/")) {
      await markImageGone(publicReference);
      return "gone";
    }
    await storeImage(publicReference, { etag: res.headers.get("etag"), contentType, body: res.body });
    return "stored";
  } catch (error) {
    const failure = upstreamFailure(error);
    if (failure && (failure.status === 404 || failure.code === "malformed_response")) {
      await markImageGone(publicReference);
      return "gone";
    }
    logger.warn("product picture not fetched; asked again later", {
      publicReference,
      error: isAppError(error) ? error.code : error instanceof Error ? error.message : String(error),
    });
    return "unavailable";
  }
}

/**
 * A pass: every due picture in turn, spaced at the pictures' pace, until none is due, the
 * upstream is unavailable (the upkeep job asks again within minutes) or PASS_RUN_MS is up
 * (then it hands over to a fresh pass). Answers how many calls it made.
 */
export async function fetchDueImages(options: { via?: Jobs; spacingMs?: number; runForMs?: number } = {}): Promise<number> {
  const spacingMs = options.spacingMs ?? Math.ceil(60_000 / imageCallsPerMinute());
  const started = Date.now();
  let calls = 0;
  for (let next = await nextDueImage(); next; next = await nextDueImage()) {
    if (Date.now() - started > (options.runForMs ?? PASS_RUN_MS)) {
      await askForImages(options.via);
      break;
    }
    if (calls > 0) await new Promise((resolve) => setTimeout(resolve, spacingMs));
    calls++;
    if ((await fetchProductImage(next.publicReference, next.etag)) === "unavailable") break;
  }
  return calls;
}
