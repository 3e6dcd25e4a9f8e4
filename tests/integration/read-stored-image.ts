/**
 * Run as a process of its own by product-images.test.ts (another app process, or the app after a
 * restart: nothing held in memory): reads a stored product picture the way the picture route
 * does and prints what it got as one JSON line (null when none is stored).
 * Usage: tsx --conditions=react-server read-stored-image.ts <publicReference>
 */
import { createHash } from "node:crypto";
import { readStoredImage } from "@/lib/catalog/product-image-store";
import { db } from "@/lib/db/client";

const image = await readStoredImage(process.argv[2]!);
const seen = image && {
  contentType: image.contentType,
  etag: image.etag,
  sha256: createHash("sha256").update(image.body).digest("hex"),
};
process.stdout.write(`${JSON.stringify(seen)}\n`);
await db().$disconnect();
