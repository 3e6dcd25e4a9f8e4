import { withStaff } from "@/lib/http/with-staff";
import { getProductImage } from "@/lib/catalog/product-image";

export const GET = withStaff<{ ref: string }>(
  async ({ req, actor, params }) => {
    const image = await getProductImage(actor, params.ref);
    const headers: Record<string, string> = {
      "content-type": image.contentType,
      // Stable references: the browser keeps them a day and revalidates with the ETag.
      "cache-control": "private, max-age=86400",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    };
    if (image.etag) headers.etag = image.etag;
    if (image.etag && req.headers.get("if-none-match") === image.etag) return new Response(null, { status: 304, headers });
    // A Uint8Array is a valid body; the cast bridges the DOM and Node typings of its buffer.
    return new Response(image.body as unknown as BodyInit, { headers });
  },
  { permission: "catalog.read" },
);
