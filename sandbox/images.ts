import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { CatalogImage } from "./catalog";
import type { Reply } from "./http/reply";
import { encodePng } from "./png";

// GET /catalog-product-images/{ref}: generated PNG bytes with a strong ETag and Last-Modified.
// References never change their bytes, so the ETag derives from the reference alone and a 304 needs no rendering.

const rendered = new Map<string, Buffer>();

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

function render(image: CatalogImage): Buffer {
  const cached = rendered.get(image.publicReference);
  if (cached) return cached;
  const { width, height, hue } = image;
  const radius = Math.min(width, height) / 4;
  const bytes = encodePng(width, height, (x, y) => {
    const t = (x / width + y / height) / 2;
    const inCircle = (x - width / 2) ** 2 + (y - height / 2) ** 2 < radius * radius;
    return hslToRgb((hue + t * 60) % 360, inCircle ? 0.35 : 0.65, inCircle ? 0.85 : 0.35 + t * 0.25);
  });
  rendered.set(image.publicReference, bytes);
  return bytes;
}

export function imageEtag(image: CatalogImage): string {
  return `"${createHash("sha256").update(`${image.publicReference}:${image.width}x${image.height}:${image.hue}:v1`).digest("hex").slice(0, 32)}"`;
}

function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

export function imageReply(image: CatalogImage, lastModifiedMs: number, headers: IncomingHttpHeaders): Reply {
  const etag = imageEtag(image);
  const lastModified = new Date(lastModifiedMs).toUTCString();
  const validators = { ETag: etag, "Last-Modified": lastModified, "Cache-Control": "private, max-age=86400" };
  const ifNoneMatch = headers["if-none-match"];
  const ifModifiedSince = headers["if-modified-since"];
  // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
  const notModified =
    ifNoneMatch !== undefined
      ? matchesEtag(ifNoneMatch, etag)
      : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Math.floor(lastModifiedMs / 1000) * 1000;
  if (notModified) return { status: 304, headers: validators };
  return { status: 200, bytes: render(image), contentType: "image/png", headers: validators };
}
