import http from "node:http";
import path from "node:path";
import { gunzipSync, zstdDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type RawAnswer, rawRequest, serveOnLoopback } from "../support/loopback";

/**
 * Next's static files answered from memory by the app's edge (lib/edge/static-files.ts through
 * lib/edge/serve.ts), in front of a real local server whose "Next" serves files as Next's static
 * handler does (streamed in pieces, `immutable`) and counts what reaches it.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SCRIPT = Buffer.from(`(globalThis.TURBOPACK ||= []).push(${JSON.stringify("x".repeat(40_000))});\n`.repeat(3));

let base: string;
let close: () => Promise<void>;
const reached: string[] = [];

/** What "Next" answers under /_next/static/: a script, a file it does not keep, and a 404. */
function next(req: http.IncomingMessage, res: http.ServerResponse) {
  reached.push(`${req.method} ${req.url}${req.headers.range ? ` ${req.headers.range}` : ""}`);
  const pathname = new URL(req.url!, "http://x").pathname;
  if (/^\/_next\/static\/chunks\/(?:app|other|later)\.js$/.test(pathname)) {
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.setHeader("Content-Type", "application/javascript; charset=UTF-8");
    res.setHeader("ETag", 'W/"1d4c0-19"');
    res.setHeader("X-Content-Type-Options", "nosniff");
    if (req.headers.range) {
      res.writeHead(206, { "Content-Range": `bytes 0-9/${SCRIPT.length}`, "Content-Length": 10 });
      return res.end(SCRIPT.subarray(0, 10));
    }
    res.setHeader("Content-Length", SCRIPT.length);
    if (req.method === "HEAD") return res.end();
    // In pieces, over several turns, as a file stream is piped.
    let at = 0;
    const more = () => {
      if (at >= SCRIPT.length) return res.end();
      res.write(SCRIPT.subarray(at, at + 16_384));
      at += 16_384;
      setImmediate(more);
    };
    return more();
  }
  if (pathname === "/_next/static/chunks/dev.js") {
    res.writeHead(200, { "Cache-Control": "no-store, must-revalidate", "Content-Type": "application/javascript" });
    return res.end(SCRIPT);
  }
  res.writeHead(404, { "Content-Type": "text/plain", "Cache-Control": "private, no-cache, no-store, max-age=0" });
  res.end("Not Found".repeat(200));
}

beforeAll(async () => {
  // lib/env reads these on first use.
  Object.assign(process.env, {
    DATABASE_URL: "postgresql://localhost/unused",
    AUTH_SECRET: "unit-test-secret-0123456789abcdefghijklmnopqrstuv",
    APP_URL: "http://localhost:3000",
  });
  const { createEdge } = await import("@/lib/edge/serve");
  const edge = createEdge({ dev: false, dir: ROOT });
  ({ base, close } = await serveOnLoopback((req, res) => edge(req, res, async () => void next(req, res))));
});
afterAll(() => close());

function get(target: string, headers: Record<string, string> = {}, method = "GET") {
  return rawRequest(`${base}${target}`, { method, headers });
}

function decoded(raw: RawAnswer): Buffer {
  const coding = raw.headers["content-encoding"];
  if (coding === "zstd") return zstdDecompressSync(raw.body);
  if (coding === "gzip") return gunzipSync(raw.body);
  return raw.body;
}

/** GETs `target` until an answer comes without reaching Next (the file is kept by then). */
async function untilKept(target: string, headers: Record<string, string>) {
  return vi.waitFor(
    async () => {
      const before = reached.length;
      const answer = await get(target, headers);
      if (reached.length !== before) throw new Error("still answered by Next");
      return answer;
    },
    { timeout: 5_000, interval: 20 },
  );
}

describe("Next's static files", () => {
  test("are answered by Next the first time, then from memory, compressed once, with the same bytes and headers", async () => {
    const first = await get("/_next/static/chunks/app.js", { "accept-encoding": "zstd" });
    expect(reached).toContain("GET /_next/static/chunks/app.js");
    expect(decoded(first).equals(SCRIPT)).toBe(true);

    const kept = await untilKept("/_next/static/chunks/app.js", { "accept-encoding": "zstd" });
    expect(kept.status).toBe(200);
    expect(kept.headers["content-encoding"]).toBe("zstd");
    expect(Number(kept.headers["content-length"])).toBe(kept.body.length);
    expect(decoded(kept).equals(SCRIPT)).toBe(true);
    // zstd at level 19 rather than the stream's default level.
    expect(kept.body.length).toBeLessThanOrEqual(first.body.length);
    for (const name of ["cache-control", "content-type", "etag", "x-content-type-options", "vary"]) {
      expect(kept.headers[name], name).toBe(first.headers[name]);
    }
    // Each answer still has its own policy (a fresh nonce), as every response of the edge has.
    expect(kept.headers["content-security-policy"]).toMatch(/script-src/);
    expect(kept.headers["content-security-policy"]).not.toBe(first.headers["content-security-policy"]);

    // Every client gets the encoding it asks for, from the same kept file; the query does not matter.
    const before = reached.length;
    const gzip = await get("/_next/static/chunks/app.js?dpl=1", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(decoded(gzip).equals(SCRIPT)).toBe(true);
    const plain = await get("/_next/static/chunks/app.js", {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(SCRIPT)).toBe(true);
    const head = await get("/_next/static/chunks/app.js", { "accept-encoding": "zstd" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(kept.headers["content-length"]);
    expect(reached.length).toBe(before);
  });

  test("a range is Next's to answer, kept file or not", async () => {
    await get("/_next/static/chunks/other.js", { "accept-encoding": "gzip" });
    await untilKept("/_next/static/chunks/other.js", { "accept-encoding": "gzip" });
    const range = await get("/_next/static/chunks/other.js", { range: "bytes=0-9" });
    expect(range.status).toBe(206);
    expect(reached.at(-1)).toBe("GET /_next/static/chunks/other.js bytes=0-9");
  });

  test("a file Next does not mark immutable, and a 404, are never kept", async () => {
    const targets = ["/_next/static/chunks/dev.js", "/_next/static/chunks/missing.js"];
    const firsts = await Promise.all(targets.map((target) => get(target, { "accept-encoding": "zstd" })));
    // Compressed like any answer, so the edge had each whole body in hand.
    for (const first of firsts) expect(first.headers["content-encoding"]).toBe("zstd");
    // A file asked for after them is kept: had either of them been taken, its compression,
    // queued first on the same thread pool, would have finished by then.
    await get("/_next/static/chunks/later.js", { "accept-encoding": "zstd" });
    await untilKept("/_next/static/chunks/later.js", { "accept-encoding": "zstd" });
    for (const [i, target] of targets.entries()) {
      const before = reached.length;
      const again = await get(target, { "accept-encoding": "zstd" });
      expect(again.status).toBe(firsts[i]!.status);
      expect(reached.length, target).toBe(before + 1);
    }
  });
});
