import "server-only";
import { logger } from "@/lib/log";
import { askForImages } from "./fetch-product-images";
import { recordSeenReferences } from "./product-image-store";

/**
 * Catalog answers name the pictures they show (a page its cards' pictures, a product all of its
 * own): each reference is recorded (only a recorded
 * reference is ever fetched, so a made-up one never costs an upstream call) and, when any is new,
 * the worker is asked to fetch them ahead of the browser asking. This process remembers what it
 * recorded within the hour, so a page view whose pictures are all known writes nothing.
 * Never fails its caller: the pictures are an aid to the page, not part of it.
 */
const RECORDED_FOR_MS = 3_600_000;
const MAX_REMEMBERED = 20_000;

const globalForSeen = globalThis as unknown as { __seenImageReferences?: Map<string, number> };
const recorded = (globalForSeen.__seenImageReferences ??= new Map());

export async function rememberProductImages(references: string[]): Promise<void> {
  const now = Date.now();
  const fresh = [...new Set(references)].filter((ref) => (recorded.get(ref) ?? 0) < now - RECORDED_FOR_MS);
  if (fresh.length === 0) return;
  try {
    const due = await recordSeenReferences(fresh, new Date(now));
    if (recorded.size + fresh.length > MAX_REMEMBERED) recorded.clear();
    for (const ref of fresh) recorded.set(ref, now);
    if (due > 0) await askForImages();
  } catch (error) {
    logger.warn("product pictures not recorded; the next catalog read records them", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
