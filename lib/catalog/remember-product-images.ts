import "server-only";
import { logger } from "@/lib/log";
import { askForImages } from "./fetch-product-images";
import { recordSeenReferences } from "./product-image-store";
import { seenRecently } from "./seen-recently";

/**
 * Catalog answers name the pictures they show (a page its cards' pictures, a product all of its
 * own): each reference is recorded (only a recorded
 * reference is ever fetched, so a made-up one never costs an upstream call) and, when any is new,
 * the worker is asked to fetch them ahead of the browser asking. This process remembers what it
 * recorded within the hour, so a page view whose pictures are all known writes nothing.
 * Never fails its caller: the pictures are an aid to the page, not part of it.
 */
const seen = seenRecently("image references");

export async function rememberProductImages(references: string[]): Promise<void> {
  const now = Date.now();
  const fresh = seen.fresh(references, now);
  if (fresh.length === 0) return;
  try {
    const due = await recordSeenReferences(fresh, new Date(now));
    seen.mark(fresh, now);
    if (due > 0) await askForImages();
  } catch (error) {
    logger.warn("product pictures not recorded; the next catalog read records them", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
