import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { readStoredImage, type StoredImage } from "./product-image-store";

/**
 * A product picture for the browser (which never calls the upstream itself): the one the app
 * holds (./product-image-store.ts), or null while it holds none, which the route answers with a
 * placeholder the browser does not keep, so the real picture shows on a later view.
 *
 * This never calls the upstream, by choice: the worker fetches every picture a catalog answer
 * names (./fetch-product-images.ts), paced and counted as its job. Fetching here instead, on a
 * person's request, would put the calls back on the request path (24 at once for a page, where
 * the pace is one every 2 s), let a person's browsing spend the job's pace, and let a request
 * for a made-up reference cost a call; a placeholder for the few seconds until the worker has it
 * costs nothing. So a person's pictures never count against their share of the minute.
 */
export type ProductImage = StoredImage;

const REFERENCE = /^[A-Za-z0-9._~-]{1,200}$/;

export async function getProductImage(actor: Actor, publicReference: string): Promise<ProductImage | null> {
  assertCan(actor, "catalog.read");
  if (!REFERENCE.test(publicReference)) throw new AppError("invalid_request", "That is not an image reference.");
  return readStoredImage(publicReference);
}

/**
 * What shows while a picture is not at hand: a grey frame with a picture's outline, drawn to
 * fill the card's 16:10 box as a picture would.
 */
export const PLACEHOLDER_IMAGE = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200" preserveAspectRatio="xMidYMid slice"><rect width="320" height="200" fill="#f1f5f9"/><g fill="none" stroke="#cbd5e1" stroke-width="6" stroke-linejoin="round"><rect x="125" y="70" width="70" height="60" rx="6"/><path d="M131 124l20-22 14 14 10-10 14 18"/></g><circle cx="178" cy="86" r="6" fill="#cbd5e1"/></svg>`;
