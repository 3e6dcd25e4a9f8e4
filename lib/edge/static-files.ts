/**
 * Next's static files (`/_next/static/…`), compressed once and answered from memory, as a CDN in
 * front of the app would. The first time Next answers one in full (200, `immutable`), its body
 * (from ./compress-response.ts) is compressed in the background with zstd 19 and gzip 9; from
 * then on a GET or HEAD of that path is answered from here, with Next's headers minus the
 * per-response ones, the client's preferred encoding and a fresh Content-Security-Policy. A
 * Range request and a file sent as it is (the font) still go to Next. Only a 200 marked
 * immutable is kept, up to MAX_STORED_BYTES, per process.
 * Why and the figures: docs/decisions/0003-static-files-from-memory.md.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { chooseEncoding, type Encoding } from "./compress-response";

export const STATIC_PREFIX = "/_next/static/";
/** A file larger than this is left to Next (the largest here is 229 KB). */
export const MAX_FILE_BYTES = 8 << 20;
/** All the kept files together (each in three forms) stop growing here. */
const MAX_STORED_BYTES = 64 << 20;

/** Headers of Next's answer that belong to that one response, not to the file. */
const PER_RESPONSE = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "content-security-policy",
]);

type Stored = { headers: OutgoingHttpHeaders; identity: Buffer; zstd?: Buffer; gzip: Buffer };

const zstd = typeof zlib.zstdCompress === "function" ? promisify(zlib.zstdCompress) : undefined;
const gzip = promisify(zlib.gzip);

export type StaticFiles = {
  /** Answers `req` (for the file at `path`) from the store and returns true, or returns false (Next answers it). */
  answer(req: IncomingMessage, res: ServerResponse, path: string, csp: string): boolean;
  /** For ./compress-response.ts's `whole`: keeps the body Next sent for `path`, if it should be kept. */
  keep(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): void;
};

export function staticFiles(): StaticFiles {
  const stored = new Map<string, Stored>();
  /** Addresses being compressed now (a second request meanwhile goes to Next, and is not compressed twice). */
  const pending = new Set<string>();
  let storedBytes = 0;

  return {
    answer(req, res, path, csp) {
      if ((req.method !== "GET" && req.method !== "HEAD") || req.headers.range !== undefined) return false;
      const file = stored.get(path);
      if (!file) return false;
      const encoding: Encoding | null = chooseEncoding(req.headers["accept-encoding"]);
      const body = encoding === "zstd" ? file.zstd : encoding === "gzip" ? file.gzip : file.identity;
      // A client that prefers zstd on a Node without it: the plain file, as compress-response would.
      const [sent, coding] = body ? [body, encoding] : [file.identity, null];
      res.writeHead(200, {
        ...file.headers,
        "content-security-policy": csp,
        ...(coding ? { "content-encoding": coding } : {}),
        "content-length": sent.length,
      });
      res.end(req.method === "HEAD" ? undefined : sent);
      return true;
    },

    keep(req, res, address, body) {
      if (req.method !== "GET" || req.headers.range !== undefined || res.statusCode !== 200) return;
      if (!/\bimmutable\b/.test(String(res.getHeader("cache-control") ?? ""))) return;
      if (stored.has(address) || pending.has(address) || body.length > MAX_FILE_BYTES) return;
      if (storedBytes + body.length * 2 > MAX_STORED_BYTES) return;
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value !== undefined && !PER_RESPONSE.has(name)) headers[name] = value;
      }
      pending.add(address);
      void Promise.all([
        // The size up front: without it zstd plans for any length, and level 19 took six times as long.
        zstd?.(body, { params: { [zlib.constants.ZSTD_c_compressionLevel]: 19 }, pledgedSrcSize: body.length }),
        gzip(body, { level: 9 }),
      ])
        .then(([zstdBody, gzipBody]) => {
          stored.set(address, { headers, identity: body, zstd: zstdBody, gzip: gzipBody });
          storedBytes += body.length + (zstdBody?.length ?? 0) + gzipBody.length;
        })
        // Not kept: Next goes on answering this address, as it did.
        .catch(() => undefined)
        .finally(() => pending.delete(address));
    },
  };
}
