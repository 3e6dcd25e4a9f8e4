import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpExchange, ExchangeTimeoutError } from "@/lib/upstream/client/http-exchange";

/**
 * The upstream client's HTTP door (lib/upstream/client/http-exchange.ts) against a real
 * local server: what it hands the transport for the answers an upstream may send.
 */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const handlers = new Map<string, Handler>();
let server: http.Server;
let base: URL;
let exchange: ReturnType<typeof createHttpExchange>;

beforeAll(async () => {
  server = http.createServer((req, res) => handlers.get(new URL(req.url!, "http://x").pathname)!(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  exchange = createHttpExchange(base);
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

let routes = 0;
function route(handler: Handler): URL {
  const path = `/r${++routes}`;
  handlers.set(path, handler);
  return new URL(path, base);
}
const get = (url: URL, timeoutMs = 5_000) => exchange(url, { method: "GET", headers: { Accept: "application/json" }, timeoutMs });
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
  });

  test("a connection closed before the body is complete rejects rather than passing on part of it", async () => {
    const url = route((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"items":[');
      setImmediate(() => req.socket.destroy());
    });
    await expect(get(url)).rejects.toThrow();
  });

  test("a connection dropped without an answer rejects", async () => {
    const url = route((req) => req.socket.destroy());
    await expect(get(url)).rejects.toThrow();
  });

  test("keeps the connection for the next request", async () => {
    const ports = new Set<number>();
    const url = route((req, res) => {
      ports.add(req.socket.remotePort!);
      res.end("{}");
    });
    for (let i = 0; i < 5; i++) await get(url);
    expect(ports.size).toBe(1);
  });
});
