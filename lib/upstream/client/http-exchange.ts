import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

/**
 * One HTTP request and its whole answer, over Node's own `http`/`https` with a keep-alive
 * agent of this client's own. The transport used the global `fetch` before: in this app that is
 * Next's wrapper (tracing, its data cache's checks) over undici's WHATWG layer (Request,
 * Headers, streams), and an upstream call through it took about 1.5 ms longer in
 * `npm run bench:proxy` (by turns, 2026-11-26). Nothing here is specific to the upstream: the
 * transport decides what to send and what an answer means.
 *
 * - Redirects are not followed (the transport treats a 3xx as the answer it is).
 * - The answer may be compressed (gzip, deflate, br), as `fetch` asks for by default: the
 *   body comes back decoded.
 * - `timeoutMs` bounds the whole exchange, connection to last byte; when it passes, the
 *   promise rejects with an ExchangeTimeoutError and the socket is dropped.
 * - A connection that closes before the answer is complete rejects (Node's response emits
 *   an error): a part of a body is never passed on as the answer.
 * - An idle connection is closed after 4 s, before the 5 s after which Node's and most
 *   servers close theirs, so a request rarely meets a connection the server is closing.
 */
export type ExchangeRequest = {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
};

export type ResponseHeaders = { get(name: string): string | null };

export type ExchangeResponse = { status: number; headers: ResponseHeaders; body: Uint8Array };

const IDLE_SOCKET_MS = 4_000;

export function createHttpExchange(base: URL) {
  const secure = base.protocol === "https:";
  const agent = secure
    ? new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS })
    : new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS });
  const send = secure ? https.request : http.request;

  return function exchange(url: URL, init: ExchangeRequest): Promise<ExchangeResponse> {
    return new Promise((resolve, reject) => {
      const body = init.body === undefined ? undefined : Buffer.from(init.body, "utf8");
      const headers: Record<string, string | number> = { "Accept-Encoding": "gzip, deflate, br", ...init.headers };
      if (body) headers["Content-Length"] = body.length;
      const req = send(url, { method: init.method, headers, agent });
      const timer = setTimeout(() => req.destroy(new ExchangeTimeoutError()), init.timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      req.on("error", fail);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", fail);
        res.on("end", () => {
          clearTimeout(timer);
          try {
            const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: headersOf(res), body: decode(raw, res.headers["content-encoding"]) });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
      req.end(body);
    });
  };
}

function headersOf(res: http.IncomingMessage): ResponseHeaders {
  return {
    get(name) {
      const value = res.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** The body as sent before its Content-Encoding; an unknown coding is left as it came. */
function decode(body: Buffer, coding: string | undefined): Buffer {
  if (body.length === 0 || !coding) return body;
  switch (coding.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.gunzipSync(body);
    case "deflate":
      return zlib.inflateSync(body);
    case "br":
      return zlib.brotliDecompressSync(body);
    default:
      return body;
  }
}

/** What an exchange rejects with when its `timeoutMs` passes. */
export class ExchangeTimeoutError extends Error {
  override name = "TimeoutError";
  constructor() {
    super("The request took longer than its timeout.");
  }
}
