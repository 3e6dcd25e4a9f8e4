import { withStaff } from "@/lib/http/with-staff";
import { getProductImage, PLACEHOLDER_IMAGE } from "@/lib/catalog/product-image";

const IMAGE_HEADERS = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
};

export const GET = withStaff<{ ref: string }>(
  async ({ req, actor, params }) => {
    const image = await getProductImage(actor, params.ref);
    // Not at hand yet (the worker fetches it): a placeholder, never kept, so a later view shows the picture.
    if (!image)
      return new Response(PLACEHOLDER_IMAGE, {
        headers: { ...IMAGE_HEADERS, "content-type": "image/svg+xml", "cache-control": "no-store" },
      });
    const headers: Record<string, string> = {
      ...IMAGE_HEADERS,
      "content-type": image.contentType,
      // Stable references: the browser keeps them a day and revalidates with the ETag.
      "cache-control": "private, max-age=86400",
    };
    if (image.etag) headers.etag = image.etag;
    if (image.etag && req.headers.get("if-none-match") === image.etag) return new Response(null, { status: 304, headers });
    // A Uint8Array is a valid body; the cast bridges the DOM and Node typings of its buffer.
    return new Response(image.body as unknown as BodyInit, { headers });
  },
  { permission: "catalog.read" },
);
