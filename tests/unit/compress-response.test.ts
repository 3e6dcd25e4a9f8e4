import http from "node:http";
import { createZstdDecompress, gunzipSync, zstdDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chooseEncoding, type CompressOptions, compressResponse } from "@/lib/edge/compress-response";
import { rawRequest, serveOnLoopback } from "../support/loopback";

/**
 * lib/edge/compress-response.ts in front of a real HTTP server, read by a raw client (so
 * that the bytes on the wire, not a decoded body, are what is checked).
 */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const handlers = new Map<string, Handler>();
/** compressResponse's options for a route (none for most). */
const optionsFor = new Map<string, CompressOptions>();
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ base, close } = await serveOnLoopback((req, res) => {
    compressResponse(req, res, optionsFor.get(req.url!));
    handlers.get(req.url!)!(req, res);
  }));
});
afterAll(() => close());

let routes = 0;
function route(handler: Handler): string {
  const path = `/r${++routes}`;
  handlers.set(path, handler);
  return path;
}

function get(path: string, headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" }, method = "GET") {
  return rawRequest(`${base}${path}`, { method, headers });
}

const SHELL = `<html><body>${"<p>shell</p>".repeat(200)}`;
const LATE = `${"<p>late</p>".repeat(200)}</body></html>`;

/** A page that writes its shell at once and the rest only when told to (a streamed page). */
function streamedPage(): { path: string; sendRest: () => void } {
  let sendRest!: () => void;
  const rest = new Promise<void>((resolve) => (sendRest = resolve));
  const path = route((_req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.flushHeaders();
    res.write(SHELL);
    void rest.then(() => res.end(LATE));
  });
  return { path, sendRest };
}

/** The response's headers and the bytes of its first part as soon as they arrive, and the whole body later. */
function firstPart(path: string, headers: Record<string, string>) {
  return new Promise<{ headers: http.IncomingHttpHeaders; first: Buffer; whole: Promise<Buffer> }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (res) => {
        const parts: Buffer[] = [];
        const whole = new Promise<Buffer>((done) => res.on("end", () => done(Buffer.concat(parts))));
        res.on("data", (c: Buffer) => {
          parts.push(c);
          resolve({ headers: res.headers, first: Buffer.concat(parts), whole });
        });
      })
      .on("error", reject);
  });
}

const json = JSON.stringify({ products: Array.from({ length: 200 }, (_, i) => ({ id: `p-${i}`, name: `Gift card ${i}` })) });

describe("a response ended in the turn it was written in", () => {
  test("a JSON body written and ended at once is gzipped whole, with its compressed Content-Length and Vary", async () => {
    const path = route((_req, res) => {
      res.statusCode = 200;
      res.setHeader("content-type", "application/json");
      res.setHeader("vary", "RSC");
      res.flushHeaders(); // as Next does before its first chunk
      res.write(json.slice(0, 1000));
      res.write(Buffer.from(json.slice(1000)));
      res.end();
    });
    const res = await get(path);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.headers["transfer-encoding"]).toBeUndefined();
    expect(res.headers.vary).toBe("RSC, Accept-Encoding");
    expect(gunzipSync(res.body).toString()).toBe(json);
    expect(res.body.length).toBeLessThan(json.length / 3);
  });

  test("writeHead's status and headers (object or flat list) are kept, and a declared length is replaced", async () => {
    const objectForm = route((_req, res) => {
      res.writeHead(201, "Made", { "content-type": "text/html; charset=utf-8", "x-one": "1", "content-length": json.length });
      res.end(json);
    });
    const listForm = route((_req, res) => {
      res.writeHead(202, ["content-type", "application/problem+json", "set-cookie", "a=1", "set-cookie", "b=2"]);
      res.end(json, "utf8");
    });
    const a = await get(objectForm);
    expect([a.status, a.headers["x-one"], a.headers["content-encoding"]]).toEqual([201, "1", "gzip"]);
    expect(Number(a.headers["content-length"])).toBe(a.body.length);
    expect(gunzipSync(a.body).toString()).toBe(json);
    const b = await get(listForm);
    expect([b.status, b.headers["set-cookie"], b.headers["content-encoding"]]).toEqual([202, ["a=1", "b=2"], "gzip"]);
    expect(gunzipSync(b.body).toString()).toBe(json);
  });

  test("sent as it is: a client without gzip, gzip;q=0, HEAD, a small body, an image, no-transform, already encoded, 304", async () => {
    const jsonRoute = route((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(json);
    });
    const refusals: Record<string, string>[] = [{}, { "accept-encoding": "gzip;q=0, identity" }, { "accept-encoding": "br" }];
    for (const accept of refusals) {
      const res = await get(jsonRoute, accept);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.body.toString()).toBe(json);
      expect(res.headers.vary).toBe("Accept-Encoding"); // a cache must still tell the two apart
    }
    const head = await get(jsonRoute, { "accept-encoding": "gzip" }, "HEAD");
    expect(head.headers["content-encoding"]).toBeUndefined();

    const cases: [Handler, string | undefined][] = [
      [(_q, r) => (r.setHeader("content-type", "application/json"), r.end('{"ok":true}')), '{"ok":true}'],
      [(_q, r) => (r.setHeader("content-type", "image/png"), r.end(json)), json],
      [
        (_q, r) => (
          r.setHeader("content-type", "text/plain"),
          r.setHeader("cache-control", "private, no-transform"),
          r.end(json)
        ),
        json,
      ],
      [(_q, r) => (r.setHeader("content-type", "text/plain"), r.setHeader("content-encoding", "identity"), r.end(json)), json],
      [(_q, r) => (r.writeHead(304, { "content-type": "text/html" }), r.end()), ""],
    ];
    for (const [handler, body] of cases) {
      const res = await get(route(handler));
      expect(res.headers["content-encoding"] ?? "identity").toBe("identity");
      expect(res.body.toString()).toBe(body);
    }
  });
});

describe("a response still being written after its first turn", () => {
  test("a streamed page is gzipped as a stream, and its first part reaches the client before the rest is written", async () => {
    const { path, sendRest } = streamedPage();
    // The server has not been told to finish: what arrived is the shell, flushed at the turn's end.
    const { headers, whole } = await firstPart(path, { "accept-encoding": "gzip" });
    expect(headers["content-encoding"]).toBe("gzip");
    expect(headers["transfer-encoding"]).toBe("chunked");
    sendRest();
    const body = gunzipSync(await whole).toString();
    expect(body).toBe(SHELL + LATE);
  });

  test("a body of megabytes ended in one call is compressed as a stream, not all at once", async () => {
    const large = JSON.stringify({ rows: Array.from({ length: 60_000 }, (_, i) => ({ id: i, reference: `shop-${i}` })) });
    expect(large.length).toBeGreaterThan(1 << 21);
    const res = await get(
      route((_req, r) => {
        r.setHeader("content-type", "application/json");
        r.end(large);
      }),
    );
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers["transfer-encoding"]).toBe("chunked"); // a length would mean gzipSync
    expect(gunzipSync(res.body).toString()).toBe(large);
  });

  test("a large export written with back-pressure arrives whole, and a small static file with its length is left alone", async () => {
    const line = "order-123,shop-ref-456,delivered,25.00,USD\n";
    const lines = 200_000; // about 8.6 MB
    const exportRoute = route((_req, res) => {
      res.setHeader("content-type", "text/csv; charset=utf-8");
      let written = 0;
      const pump = () => {
        while (written < lines) {
          written += 1;
          if (!res.write(line)) return void res.once("drain", () => setImmediate(pump));
        }
        res.end();
      };
      setImmediate(pump);
    });
    const big = await get(exportRoute);
    expect(big.headers["content-encoding"]).toBe("gzip");
    const text = gunzipSync(big.body).toString();
    expect(text.length).toBe(line.length * lines);
    expect(text.endsWith(line) && text.startsWith(line)).toBe(true);

    const staticRoute = route((_req, res) => {
      res.setHeader("content-type", "text/css");
      res.setHeader("content-length", "12");
      setImmediate(() => res.write("body{margin:"));
      setTimeout(() => res.end(), 5);
    });
    const small = await get(staticRoute);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString()).toBe("body{margin:");
  });
});

describe("a browser that accepts zstd (Chromium and Firefox ask for it)", () => {
  const asChromium = { "accept-encoding": "gzip, deflate, br, zstd" };

  test("a body ended in one turn is sent as zstd, smaller than gzip's, with its length", async () => {
    const path = route((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(json);
    });
    const zstd = await get(path, asChromium);
    expect(zstd.headers["content-encoding"]).toBe("zstd");
    expect(Number(zstd.headers["content-length"])).toBe(zstd.body.length);
    expect(zstd.headers.vary).toBe("Accept-Encoding");
    expect(zstdDecompressSync(zstd.body).toString()).toBe(json);
    const gzip = await get(path, { "accept-encoding": "gzip" });
    expect(zstd.body.length).toBeLessThan(gzip.body.length);
  });

  test("a streamed page is a zstd stream whose first part arrives before the rest is written", async () => {
    const { path, sendRest } = streamedPage();
    const { headers, first, whole } = await firstPart(path, asChromium);
    expect(headers["content-encoding"]).toBe("zstd");
    // What arrived before the rest was written decodes to the shell (a flushed zstd frame part).
    const shell = await new Promise<string>((resolve, reject) => {
      const decoder = createZstdDecompress();
      let text = "";
      decoder.on("data", (c: Buffer) => {
        text += c.toString();
        if (text.length >= SHELL.length) resolve(text);
      });
      decoder.on("error", reject);
      decoder.write(first);
    });
    expect(shell).toBe(SHELL);
    sendRest();
    expect(zstdDecompressSync(await whole).toString()).toBe(SHELL + LATE);
  });
});

describe("the whole body, for a caller that keeps it (lib/edge/static-files.ts)", () => {
  /**
   * A route, and the whole body its response handed over: null when the response finished
   * without it (the route's own "finish" listener comes after compressResponse's, which gives).
   */
  function keeping(handler: Handler, wholeLimitBytes?: number): { path: string; kept: Promise<Buffer | null> } {
    let give!: (body: Buffer | null) => void;
    const kept = new Promise<Buffer | null>((resolve) => (give = resolve));
    const path = route((req, res) => {
      res.once("finish", () => give(null));
      handler(req, res);
    });
    optionsFor.set(path, { whole: give, wholeLimitBytes });
    return { path, kept };
  }
  async function keptAfter(path: string, kept: Promise<Buffer | null>, headers?: Record<string, string>) {
    const res = await get(path, headers);
    return { res, kept: await kept };
  }

  test("is handed over as written, for a body ended in one turn and for one streamed over many", async () => {
    const atOnce = keeping((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.write(json.slice(0, 500));
      res.end(json.slice(500));
    });
    const a = await keptAfter(atOnce.path, atOnce.kept);
    expect(a.res.headers["content-encoding"]).toBe("gzip");
    expect(a.kept?.toString()).toBe(json);

    const streamed = keeping((_req, res) => {
      res.setHeader("content-type", "application/javascript");
      let i = 0;
      const next = () => (i < 5 ? (res.write(json), i++, setImmediate(next)) : res.end());
      next();
    });
    const b = await keptAfter(streamed.path, streamed.kept, { "accept-encoding": "zstd" });
    expect(b.res.headers["content-encoding"]).toBe("zstd");
    expect(zstdDecompressSync(b.res.body).toString()).toBe(json.repeat(5));
    expect(b.kept?.toString()).toBe(json.repeat(5));
  });

  test("is not handed over for a response sent as it is, or one past the limit", async () => {
    const image = keeping((_req, res) => {
      res.setHeader("content-type", "image/png");
      res.end(Buffer.alloc(4000));
    });
    expect((await keptAfter(image.path, image.kept)).kept).toBeNull();
    const plainClient = keeping((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(json);
    });
    expect((await keptAfter(plainClient.path, plainClient.kept, {})).kept).toBeNull();
    const tooLarge = keeping((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(json);
    }, json.length - 1);
    const c = await keptAfter(tooLarge.path, tooLarge.kept);
    expect(gunzipSync(c.res.body).toString()).toBe(json);
    expect(c.kept).toBeNull();
  });
});

test("Accept-Encoding: zstd or gzip by the client's q-values (by name, else *), zstd on a tie; neither at q=0", () => {
  const cases: [string | undefined, "zstd" | "gzip" | null][] = [
    ["gzip, deflate, br, zstd", "zstd"],
    ["zstd", "zstd"],
    ["*", "zstd"],
    ["GZIP, ZSTD", "zstd"],
    ["gzip", "gzip"],
    ["gzip, deflate", "gzip"],
    ["gzip;q=1, zstd;q=0.5", "gzip"],
    ["zstd;q=0, *", "gzip"],
    ["deflate, gzip;q=0.5", "gzip"],
    ["br;q=1, *;q=0.1", "zstd"],
    ["gzip; q=0.0, zstd;q=0.2", "zstd"],
    [undefined, null],
    ["", null],
    ["br", null],
    ["gzip;q=0", null],
    ["identity, *;q=0", null],
    ["zstd;q=0, gzip;q=0, *", null],
    ["gzip;q=abc", null],
  ];
  expect(cases.map(([header]) => [header, chooseEncoding(header)])).toEqual(cases);
});
