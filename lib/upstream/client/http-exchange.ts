import zlib from "node:zlib";
import { Agent, request, type Dispatcher } from "undici";

/**
 * One HTTP request and its whole answer, through undici's `request` on an Agent of this
 * client's own (keep-alive), not the global `fetch` (Next's wrapper; slower per call:
 * docs/decisions/0013-upstream-http-through-undici-request.md). Nothing here is specific to
 * the upstream. Redirects are not followed; a compressed answer (gzip, deflate, br) comes back
 * decoded; `timeoutMs` bounds the whole exchange (ExchangeTimeoutError, request aborted);
 * `maxBytes` bounds the decoded body (ExchangeTooLargeError as soon as it is known, the rest
 * unread); a connection closed before the answer is complete rejects, never a partial body;
 * an idle connection is closed after 4 s, before the servers' usual 5 s.
 */
export type ExchangeRequest = {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The largest body accepted, decoded; DEFAULT_MAX_ANSWER_BYTES when not given. */
  maxBytes?: number;
};

export type ResponseHeaders = { get(name: string): string | null };

export type ExchangeResponse = { status: number; headers: ResponseHeaders; body: Uint8Array };

/** A JSON answer of the upstream is a page of at most a few hundred rows: tens of kilobytes. */
export const DEFAULT_MAX_ANSWER_BYTES = 5 * 1024 * 1024;

const IDLE_SOCKET_MS = 4_000;

export function createHttpExchange(base: URL) {
  const dispatcher: Dispatcher = new Agent({
    keepAliveTimeout: IDLE_SOCKET_MS,
    keepAliveMaxTimeout: IDLE_SOCKET_MS,
    // The exchange's own timer covers the whole exchange; undici's per-phase timers would end it differently.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const origin = base.origin;

  return async function exchange(url: URL, init: ExchangeRequest): Promise<ExchangeResponse> {
    if (url.origin !== origin) throw new Error(`This exchange sends only to ${origin}.`);
    const maxBytes = init.maxBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new ExchangeTimeoutError()), init.timeoutMs);
    try {
      const res = await request(url, {
        dispatcher,
        method: init.method as Dispatcher.HttpMethod,
        headers: { "accept-encoding": "gzip, deflate, br", ...init.headers },
        body: init.body,
        signal: abort.signal,
      });
      const declared = Number(res.headers["content-length"]);
      if (declared > maxBytes) {
        res.body.destroy();
        throw new ExchangeTooLargeError(maxBytes);
      }
      const chunks: Buffer[] = [];
      let length = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        length += chunk.length;
        if (length > maxBytes) {
          res.body.destroy();
          throw new ExchangeTooLargeError(maxBytes);
        }
        chunks.push(chunk);
      }
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
      const body = decode(raw, res.headers["content-encoding"], maxBytes);
      return { status: res.statusCode, headers: headersOf(res.headers), body };
    } catch (error) {
      // An abort surfaces as its reason (the timeout) or, mid-body, as undici's own abort error.
      if (abort.signal.aborted) throw abort.signal.reason as ExchangeTimeoutError;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}

function headersOf(headers: Record<string, string | string[] | undefined>): ResponseHeaders {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** The body as sent before its Content-Encoding, at most `maxBytes`; an unknown coding is left as it came. */
function decode(body: Buffer, coding: string | string[] | undefined, maxBytes: number): Buffer {
  if (body.length === 0 || typeof coding !== "string") return body;
  const options = { maxOutputLength: maxBytes };
  try {
    switch (coding.trim().toLowerCase()) {
      case "gzip":
      case "x-gzip":
        return zlib.gunzipSync(body, options);
      case "deflate":
        return zlib.inflateSync(body, options);
      case "br":
        return zlib.brotliDecompressSync(body, options);
      default:
        return body;
    }
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new ExchangeTooLargeError(maxBytes);
    throw error;
  }
}

/** What an exchange rejects with when its `timeoutMs` passes. */
export class ExchangeTimeoutError extends Error {
  override name = "TimeoutError";
  constructor() {
    super("The request took longer than its timeout.");
  }
}

/** What an exchange rejects with when the answer's body is larger than its `maxBytes`. */
export class ExchangeTooLargeError extends Error {
  override name = "ExchangeTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`The answer was larger than ${maxBytes} bytes; it was not read.`);
  }
}
