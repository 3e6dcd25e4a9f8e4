import "server-only";
import { db } from "@/lib/db/client";

/**
 * The product pictures the app keeps (`ProductImage`): one row per reference a catalog answer
 * has named, its body once the worker has fetched it (./fetch-product-images.ts). Every app
 * process and instance reads the same rows, and they outlast restarts; each process keeps the
 * pictures it served lately in memory in front (least recently used first out), each for at
 * most MEMORY_TTL_MS, so that a picture the worker replaced reaches every process soon.
 */
export type StoredImage = { etag: string | null; contentType: string; body: Uint8Array };

/** A picture is asked again (with its ETag: a 304 costs no body) once a day. */
export const REVALIDATE_AFTER_MS = 24 * 3_600_000;
/** A picture no catalog answer has named for a week is dropped (the catalog no longer shows it). */
export const FORGET_UNSEEN_AFTER_MS = 7 * 24 * 3_600_000;

const MEMORY_TTL_MS = 10 * 60_000;
const MEMORY_MAX_BYTES = 16 * 1024 * 1024;

type Held = StoredImage & { until: number };
const globalForImages = globalThis as unknown as { __productImages?: { entries: Map<string, Held>; bytes: number } };
const memory = (globalForImages.__productImages ??= { entries: new Map(), bytes: 0 });

/** The stored picture of a reference, or null while none is (never fetched, or gone upstream). */
export async function readStoredImage(publicReference: string): Promise<StoredImage | null> {
  const held = memory.entries.get(publicReference);
  if (held && held.until > Date.now()) {
    memory.entries.delete(publicReference);
    memory.entries.set(publicReference, held);
    return held;
  }
  const row = await db().productImage.findUnique({
    where: { publicReference },
    select: { etag: true, contentType: true, body: true },
  });
  if (!row?.body || !row.contentType) {
    forget(publicReference);
    return null;
  }
  const image: StoredImage = { etag: row.etag, contentType: row.contentType, body: row.body };
  keep(publicReference, { ...image, until: Date.now() + MEMORY_TTL_MS });
  return image;
}

/**
 * Records that catalog answers named these references (seen now; a row seen within the hour is
 * left alone, so a page view writes nothing). Answers how many of them were never fetched.
 */
export async function recordSeenReferences(references: string[], now = new Date()): Promise<number> {
  if (references.length === 0) return 0;
  const rows = await db().$queryRaw<{ due: boolean }[]>`
    INSERT INTO "ProductImage" ("publicReference", "seenAt")
    SELECT ref, ${now} FROM unnest(${references}::text[]) AS ref
    ON CONFLICT ("publicReference") DO UPDATE SET "seenAt" = EXCLUDED."seenAt"
      WHERE "ProductImage"."seenAt" < EXCLUDED."seenAt" - interval '1 hour'
    RETURNING "checkedAt" IS NULL AS "due"`;
  return rows.filter((row) => row.due).length;
}

/** The next picture the worker should ask for: one never asked (oldest seen first), else one unchecked for a day. */
export async function nextDueImage(now = new Date()): Promise<{ publicReference: string; etag: string | null } | null> {
  const select = { publicReference: true, etag: true } as const;
  return (
    (await db().productImage.findFirst({ where: { checkedAt: null }, orderBy: { seenAt: "asc" }, select })) ??
    (await db().productImage.findFirst({
      where: { checkedAt: { lt: new Date(now.getTime() - REVALIDATE_AFTER_MS) } },
      orderBy: { checkedAt: "asc" },
      select,
    }))
  );
}

/** A fresh body from the upstream. */
export async function storeImage(publicReference: string, image: StoredImage, now = new Date()): Promise<void> {
  const body = Uint8Array.from(image.body);
  await db().productImage.update({
    where: { publicReference },
    data: { etag: image.etag, contentType: image.contentType, body, fetchedAt: now, checkedAt: now },
  });
  forget(publicReference);
}

/** The upstream said the body held is still current (a 304). */
export async function markImageChecked(publicReference: string, now = new Date()): Promise<void> {
  await db().productImage.update({ where: { publicReference }, data: { checkedAt: now } });
}

/** The upstream has no picture there (404, or not an image): none is served, and it is asked again in a day. */
export async function markImageGone(publicReference: string, now = new Date()): Promise<void> {
  await db().productImage.update({
    where: { publicReference },
    data: { etag: null, contentType: null, body: null, checkedAt: now },
  });
  forget(publicReference);
}

/** Drops the pictures no catalog answer has named for FORGET_UNSEEN_AFTER_MS; answers how many went. */
export async function forgetUnseenImages(now = new Date()): Promise<number> {
  const { count } = await db().productImage.deleteMany({
    where: { seenAt: { lt: new Date(now.getTime() - FORGET_UNSEEN_AFTER_MS) } },
  });
  return count;
}

/** Whether any picture is waiting for the worker (never asked, or due again). */
export async function anyImageDue(now = new Date()): Promise<boolean> {
  return (await nextDueImage(now)) !== null;
}

function keep(key: string, entry: Held) {
  forget(key);
  memory.entries.set(key, entry);
  memory.bytes += entry.body.length;
  for (const [oldKey, old] of memory.entries) {
    if (memory.bytes <= MEMORY_MAX_BYTES) break;
    memory.entries.delete(oldKey);
    memory.bytes -= old.body.length;
  }
}

function forget(key: string) {
  const previous = memory.entries.get(key);
  if (!previous) return;
  memory.entries.delete(key);
  memory.bytes -= previous.body.length;
}
