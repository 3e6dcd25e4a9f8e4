import http from "node:http";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createHttpExchange,
  DEFAULT_MAX_ANSWER_BYTES,
  ExchangeTimeoutError,
  ExchangeTooLargeError,
} from "@/lib/upstream/client/http-exchange";
import { serveOnLoopback } from "../support/loopback";

/**
 * The upstream client's HTTP door (lib/upstream/client/http-exchange.ts) against a real
 * local server: what it hands the transport for the answers an upstream may send.
 */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const handlers = new Map<string, Handler>();
let base: URL;
let close: () => Promise<void>;
let exchange: ReturnType<typeof createHttpExchange>;

beforeAll(async () => {
  const served = await serveOnLoopback((req, res) => handlers.get(new URL(req.url!, "http://x").pathname)!(req, res));
  base = new URL(`${served.base}/`);
  close = served.close;
  exchange = createHttpExchange(base);
});
afterAll(() => close());

let routes = 0;
function route(handler: Handler): URL {
  const path = `/r${++routes}`;
  handlers.set(path, handler);
  return new URL(path, base);
}
const get = (url: URL, timeoutMs = 5_000, maxBytes?: number) =>
  exchange(url, { method: "GET", headers: { Accept: "application/json" }, timeoutMs, maxBytes });
/** What the promise rejected with, or a note of what it resolved to (never the body: it may be megabytes). */
const failure = (promise: Promise<{ body: Uint8Array }>) =>
  promise.then(
    (res) => `resolved with ${res.body.length} bytes`,
    (error: unknown) => error,
  );
const json = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body)) as unknown;
const PAGE = { items: Array.from({ length: 50 }, (_, i) => ({ id: `p${i}`, name: `Gift card ${i}` })) };

describe("the upstream client's HTTP exchange", () => {
  test("sends the method, headers and body given, and returns the status, headers and body", async () => {
    let seen: { method?: string; key?: string; type?: string; body?: string } = {};
    const url = route((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen = { method: req.method, key: String(req.headers["x-api-key"]), type: req.headers["content-type"], body };
        res.writeHead(202, { "content-type": "application/json", "x-correlation-id": "corr-1" });
        res.end(JSON.stringify({ id: "ord_1" }));
      });
    });
    const res = await exchange(url, {
      method: "POST",
      headers: { "X-Api-Key": "svckey_a_b", "Content-Type": "application/json" },
      body: JSON.stringify({ clientReference: "r-1" }),
      timeoutMs: 5_000,
    });
    expect(seen).toEqual({ method: "POST", key: "svckey_a_b", type: "application/json", body: '{"clientReference":"r-1"}' });
    expect(res.status).toBe(202);
    expect(res.headers.get("X-Correlation-Id")).toBe("corr-1");
    expect(res.headers.get("retry-after")).toBeNull();
    expect(json(res.body)).toEqual({ id: "ord_1" });
  });

  test.each([
    ["gzip", gzipSync],
    ["br", brotliCompressSync],
    ["deflate", deflateSync],
  ] as const)("asks for compressed answers and decodes a %s one", async (coding, compress) => {
    let asked: string | undefined;
    const url = route((req, res) => {
      asked = req.headers["accept-encoding"];
      res.writeHead(200, { "content-type": "application/json", "content-encoding": coding });
      res.end(compress(Buffer.from(JSON.stringify(PAGE))));
    });
    const res = await get(url);
    expect(asked).toContain(coding);
    expect(json(res.body)).toEqual(PAGE);
  });

  test("does not follow a redirect: the 3xx is the answer", async () => {
    const target = route((_req, res) => res.end("followed"));
    const url = route((_req, res) => {
      res.writeHead(302, { location: target.href });
      res.end();
    });
    const res = await get(url);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(target.href);
  });

  test("an answer slower than the timeout rejects as a timeout", async () => {
    const url = route((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"items":['); // headers and part of the body, then nothing
    });
    await expect(get(url, 300)).rejects.toBeInstanceOf(ExchangeTimeoutError);
    const silent = route(() => {}); // not even the headers
    await expect(get(silent, 300)).rejects.toBeInstanceOf(ExchangeTimeoutError);
  });

  test("a connection closed before the body is complete rejects rather than passing on part of it", async () => {
    const url = route((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"items":[');
      setImmediate(() => req.socket.destroy());
    });
    await expect(get(url)).rejects.toThrow();
  });

  test("a chunked answer whose connection closes before its last chunk rejects", async () => {
    const url = route((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"items":[');
      setImmediate(() => req.socket.destroy());
    });
    expect(await failure(get(url))).toBeInstanceOf(Error);
  });

  test("a connection dropped without an answer rejects", async () => {
    const url = route((req) => req.socket.destroy());
    await expect(get(url)).rejects.toThrow();
  });

  test("decodes a compressed error answer too: a problem document is read like any other body", async () => {
    const problem = { type: "about:blank", title: "Not found", status: 404, code: "not_found" };
    const url = route((_req, res) => {
      res.writeHead(404, { "content-type": "application/problem+json", "content-encoding": "gzip" });
      res.end(gzipSync(Buffer.from(JSON.stringify(problem))));
    });
    const res = await get(url);
    expect(res.status).toBe(404);
    expect(json(res.body)).toEqual(problem);
  });

  test("an answer larger than the cap rejects as too large, without reading it whole", async () => {
    // Declared: refused from its Content-Length, before any of the body is read.
    let declaredSent = 0;
    const declared = route((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(64 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && declaredSent < 64 * 1024 * 1024 && res.write(chunk)) declaredSent += chunk.length;
        if (declaredSent >= 64 * 1024 * 1024) res.end();
      };
      res.on("drain", more);
      more();
    });
    expect(await failure(get(declared, 5_000, 1024 * 1024))).toBeInstanceOf(ExchangeTooLargeError);
    expect(declaredSent).toBeLessThan(16 * 1024 * 1024);

    // Chunked, with no length: refused once the bytes read pass the cap; the server's writes stop.
    let chunkedSent = 0;
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const chunked = route((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.on("close", closed);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && chunkedSent < 64 * 1024 * 1024 && res.write(chunk)) chunkedSent += chunk.length;
        if (chunkedSent >= 64 * 1024 * 1024) res.end();
      };
      res.on("drain", more);
      more();
    });
    const error = await failure(get(chunked, 5_000, 1024 * 1024));
    expect(error).toBeInstanceOf(ExchangeTooLargeError);
    expect((error as Error).message).toMatch(/larger than 1048576 bytes/);
    await gone;
    expect(chunkedSent).toBeLessThan(16 * 1024 * 1024);
  });

  test("the cap counts the answer as decoded: a small gzip of a large body is too large", async () => {
    const bomb = gzipSync(Buffer.alloc(DEFAULT_MAX_ANSWER_BYTES + 1, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const url = route((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(bomb);
    });
    expect(await failure(get(url))).toBeInstanceOf(ExchangeTooLargeError);
    const exact = route((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(gzipSync(Buffer.alloc(DEFAULT_MAX_ANSWER_BYTES, 0x20)));
    });
    expect((await get(exact)).body.length).toBe(DEFAULT_MAX_ANSWER_BYTES);
  });

  test("keeps connections for the next requests", async () => {
    // undici reuses a connection one turn of the event loop after its answer ends, so requests
    // sent back to back take turns on two connections; none is opened per request.
    const ports = new Set<number>();
    const url = route((req, res) => {
      ports.add(req.socket.remotePort!);
      res.end("{}");
    });
    for (let i = 0; i < 10; i++) await get(url);
    expect(ports.size).toBeLessThanOrEqual(2);
  });

  test("sends only to the origin it was made for (the API key goes nowhere else)", async () => {
    const elsewhere = new URL("/r1", `http://localhost:${base.port}/`);
    await expect(get(elsewhere)).rejects.toThrow(/sends only to/);
  });
});
