import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { spentBy, upstream } from "@/lib/upstream/service";

/**
 * Product images, proxied so that the browser never calls the upstream. References are
 * stable for the life of an image (contract 4.3), so each costs one upstream call per
 * instance; after an hour it is revalidated with its ETag (a 304 costs no body).
 * Bounded in memory; the least recently used images leave first.
 */
type Cached = { etag: string | null; contentType: string; body: Uint8Array; checkedAt: number };

const REVALIDATE_AFTER_MS = 60 * 60_000;
const MAX_BYTES = 32 * 1024 * 1024;
const REFERENCE = /^[A-Za-z0-9._~-]{1,200}$/;

const globalForImages = globalThis as unknown as { __images?: { entries: Map<string, Cached>; bytes: number } };
const store = (globalForImages.__images ??= { entries: new Map(), bytes: 0 });

export type ProductImage = { etag: string | null; contentType: string; body: Uint8Array };

export async function getProductImage(actor: Actor, publicReference: string): Promise<ProductImage> {
  assertCan(actor, "catalog.read");
  if (!REFERENCE.test(publicReference)) throw new AppError("invalid_request", "That is not an image reference.");
  const cached = store.entries.get(publicReference);
  if (cached && Date.now() - cached.checkedAt < REVALIDATE_AFTER_MS) return touch(publicReference, cached);

  const res = await upstream().getProductImage(publicReference, cached?.etag ?? undefined, {
    priority: "background",
    deadlineMs: 20_000,
    by: spentBy(actor),
  });
  if (res.status === 304 && cached) return touch(publicReference, { ...cached, checkedAt: Date.now() });
  const contentType = res.headers.get("content-type") ?? "application/octet-stream";
  if (!contentType.startsWith("image/"))
    throw new AppError("upstream_error", "The Issuing Service sent something that is not an image.", {
      correlationId: res.correlationId,
    });
  const entry: Cached = { etag: res.headers.get("etag"), contentType, body: res.body, checkedAt: Date.now() };
  remember(publicReference, entry);
  return entry;
}

function touch(key: string, entry: Cached): Cached {
  store.entries.delete(key);
  store.entries.set(key, entry);
  return entry;
}

function remember(key: string, entry: Cached) {
  const previous = store.entries.get(key);
  if (previous) store.bytes -= previous.body.length;
  store.entries.delete(key);
  store.entries.set(key, entry);
  store.bytes += entry.body.length;
  for (const [oldKey, old] of store.entries) {
    if (store.bytes <= MAX_BYTES) break;
    store.entries.delete(oldKey);
    store.bytes -= old.body.length;
  }
}
