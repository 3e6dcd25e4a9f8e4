/**
 * Compression for what Next answers, in place of Next's own `compress` (off in next.config.mjs),
 * run by the edge (./serve.ts). What is written in one turn of the event loop is held until the
 * turn ends, so a response that ends in that turn is compressed at once and sent with its
 * headers in one write, with a Content-Length; a longer one goes on as a stream, flushed at the
 * end of each turn that wrote something. zstd for a client that accepts it, else gzip, by its
 * q-values (zstd on a tie). Compressed: a compressible type, 1 KB or more, a status with a body,
 * no range, no Content-Encoding yet, no `no-transform`; compressible types get `Vary:
 * Accept-Encoding` either way. Why ours: docs/decisions/0002-compression-at-the-edge.md.
 */
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from "node:http";
import zlib from "node:zlib";

export type Encoding = "zstd" | "gzip";
type Chunk = string | Buffer | Uint8Array;
type Callback = (error?: Error | null) => void;
type Codec = { compressSync(body: Buffer): Buffer; stream(): zlib.Gzip | zlib.ZstdCompress };

/** Below this, the format's header and trailer eat most of the saving (the `compression` default). */
export const THRESHOLD_BYTES = 1024;
/** A body held longer than one turn, or larger than this, goes on as a stream (megabytes are not compressed in one call). */
const MAX_HELD_BYTES = 1 << 20;
const COMPRESSIBLE =
  /^\s*(?:text\/[^;\s]+|application\/(?:json|javascript|ecmascript|xml|x-javascript|[\w.-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

/**
 * The encodings offered, in the order preferred when the client's q-values tie. zstd only on a
 * Node that has it (22.15 and later; the app pins 24): this server run by an older Node answers
 * with gzip rather than fail on a browser's request.
 */
const CODECS: Partial<Record<Encoding, Codec>> = {
  ...(typeof zlib.zstdCompressSync === "function"
    ? { zstd: { compressSync: (body: Buffer) => zlib.zstdCompressSync(body), stream: () => zlib.createZstdCompress() } }
    : {}),
  gzip: { compressSync: (body: Buffer) => zlib.gzipSync(body), stream: () => zlib.createGzip() },
};

/**
 * The encoding to answer an Accept-Encoding header with: the one of ours the client rates
 * highest (by name, else by `*`), zstd on a tie; null when it accepts neither (absent, q=0).
 */
export function chooseEncoding(header: unknown): Encoding | null {
  if (typeof header !== "string") return null;
  const rated = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith("q="));
    const value = q === undefined ? 1 : Number(q.slice(2));
    rated.set(name, Number.isFinite(value) ? value : 0);
  }
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const name of Object.keys(CODECS) as Encoding[]) {
    const q = rated.get(name) ?? rated.get("*") ?? 0;
    if (q > bestQ) [best, bestQ] = [name, q];
  }
  return best;
}

export type CompressOptions = {
  /**
   * Given the whole body as written (before compression) once a compressed response has been
   * sent in full; not called for a response sent as it is, or one whose body passed
   * `wholeLimitBytes` (./static-files.ts keeps Next's static files with it).
   */
  whole?: (body: Buffer) => void;
  wholeLimitBytes?: number;
};

/**
 * Compresses what `res` sends, if the response turns out to be worth it. Call before handing
 * `req` and `res` to Next. The response's write methods are replaced for this response;
 * nothing else is changed.
 */
export function compressResponse(req: IncomingMessage, res: ServerResponse, options: CompressOptions = {}): void {
  /** The coding this client gets (null: it is sent as it is). */
  const chosen = req.method === "HEAD" ? null : chooseEncoding(req.headers["accept-encoding"]);
  const original = { writeHead: res.writeHead, write: res.write, end: res.end, flushHeaders: res.flushHeaders };
  /** "holding" until the first part is sent; then "sent" (compressed or as it is). */
  let mode: "holding" | "sent" = "holding";
  /** Set when this response is sent compressed by us. */
  let compressed = false;
  /** What was written and not yet passed on: the whole body while holding, a turn's worth after. */
  const held = heldPieces(
    options.whole ? wholeBody(res, () => compressed, options.whole, options.wholeLimitBytes ?? MAX_HELD_BYTES) : undefined,
  );
  /** The step at this turn's end: release() while holding, the next compressed piece after. */
  let turnEnd: NodeJS.Immediate | undefined;
  // Node's overloads of write/end/writeHead cannot be restated one by one; these replacements
  // take what Node's own methods take and pass it on (`Function.prototype.apply`).
  const patch = res as unknown as Record<"writeHead" | "write" | "end" | "flushHeaders", (...args: unknown[]) => unknown>;
  const originalWrite = (...args: unknown[]) => (original.write as (...a: unknown[]) => boolean).apply(res, args);
  const originalEnd = (...args: unknown[]) => (original.end as (...a: unknown[]) => ServerResponse).apply(res, args);

  const plain = () => {
    mode = "sent";
    res.writeHead = original.writeHead;
    res.write = original.write;
    res.end = original.end;
    res.flushHeaders = original.flushHeaders;
  };

  /** Headers given to writeHead become the response's now; they are sent with the body. */
  patch.writeHead = function writeHead(this: ServerResponse, ...args: unknown[]) {
    if (mode !== "holding") return (original.writeHead as (...a: unknown[]) => unknown).apply(this, args);
    const [statusCode, second, third] = args as [number, unknown, unknown];
    const [reason, headers] = typeof second === "string" ? [second, third] : [undefined, second];
    res.statusCode = statusCode;
    if (reason !== undefined) res.statusMessage = reason;
    if (Array.isArray(headers)) {
      const pairs: [string, OutgoingHttpHeader][] = Array.isArray(headers[0]) ? headers : pairsOf(headers);
      for (const [name, value] of pairs) res.appendHeader(name, value as string | readonly string[]);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders))
        if (value !== undefined) res.setHeader(name, value);
    }
    return res;
  };

  patch.flushHeaders = function flushHeaders(this: ServerResponse) {
    if (mode !== "holding") return original.flushHeaders.call(this);
    turnEnd ??= setImmediate(release);
  };

  // Until release() or the end, the response is held; after, these are the originals again
  // (or, for a compressed stream, release()'s own).
  patch.write = function write(...args: unknown[]) {
    held.add(...writeArgs(args));
    if (held.bytes > MAX_HELD_BYTES) release();
    else turnEnd ??= setImmediate(release);
    return true;
  };

  patch.end = function end(...args: unknown[]) {
    const [chunk, encoding, callback] = writeArgs(args);
    if (chunk != null) held.add(chunk, encoding);
    if (turnEnd) clearImmediate(turnEnd);
    turnEnd = undefined;
    // A body this large is compressed as a stream, on zlib's thread pool, not here at once.
    if (held.bytes > MAX_HELD_BYTES) {
      release();
      return res.end(callback);
    }
    // Ended in the turn it was written in: the whole body is known.
    const { body, done } = held.take();
    const compress = decide(body.length);
    plain();
    if (done) res.once("finish", done);
    if (!compress || !chosen) return originalEnd(body.length > 0 ? body : undefined, callback);
    const encoded = CODECS[chosen]!.compressSync(body);
    compressed = true;
    res.setHeader("Content-Encoding", chosen);
    res.setHeader("Content-Length", encoded.length);
    return originalEnd(encoded, callback);
  };

  /** The response goes on past this turn: send what is held, compressed or as it is. */
  function release() {
    turnEnd = undefined;
    if (mode !== "holding") return;
    const declared = Number(res.getHeader("content-length"));
    const compress = decide(Number.isFinite(declared) ? declared : undefined);
    plain();
    if (!compress || !chosen) {
      const { body, done } = held.take();
      if (body.length > 0 || done) originalWrite(body, done);
      else original.flushHeaders.call(res);
      return;
    }
    compressed = true;
    res.setHeader("Content-Encoding", chosen);
    res.removeHeader("Content-Length");
    const stream = CODECS[chosen]!.stream();
    // What is written in a turn goes into the compressed stream at the turn's end, as one piece, and
    // is flushed, so it reaches the client then, as it would unzipped. One piece per turn, not
    // per write: zlib runs each piece on its thread pool, and an export writes line by line.
    /** A writer was told to wait (write() returned false) and is owed a drain. */
    let owesDrain = false;
    const sendPiece = () => {
      turnEnd = undefined;
      if (stream.destroyed) return;
      const { body, done } = held.take();
      const ok = stream.write(body, done);
      stream.flush();
      if (ok && owesDrain) {
        owesDrain = false;
        res.emit("drain");
      }
    };
    stream.on("drain", () => {
      if (!owesDrain) return;
      owesDrain = false;
      res.emit("drain");
    });
    patch.write = function write(...args: unknown[]) {
      held.add(...writeArgs(args));
      turnEnd ??= setImmediate(sendPiece);
      if (held.bytes + stream.writableLength < stream.writableHighWaterMark) return true;
      owesDrain = true;
      return false;
    };
    patch.end = function end(...args: unknown[]) {
      const [chunk, encoding, callback] = writeArgs(args);
      if (callback) res.once("finish", callback);
      if (chunk != null) held.add(chunk, encoding);
      if (turnEnd) clearImmediate(turnEnd);
      turnEnd = undefined;
      const { body, done } = held.take();
      if (done) res.once("finish", done);
      stream.end(body);
      return res;
    };
    stream.on("data", (data: Buffer) => {
      if (originalWrite(data) === false) stream.pause();
    });
    res.on("drain", () => stream.resume());
    stream.on("end", () => originalEnd());
    stream.on("error", (error) => res.destroy(error));
    res.once("close", () => {
      if (turnEnd) clearImmediate(turnEnd);
      stream.destroy();
    });
    sendPiece();
  }

  /** Whether to compress, `length` being the body's size when known; sets Vary for compressible types. */
  function decide(length: number | undefined): boolean {
    const type = res.getHeader("content-type");
    if (typeof type !== "string" || !COMPRESSIBLE.test(type)) return false;
    addVary(res, "Accept-Encoding");
    if (!chosen) return false;
    const status = res.statusCode;
    if (status < 200 || status === 204 || status === 206 || status === 304) return false;
    if (res.getHeader("content-encoding") !== undefined) return false;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader("cache-control") ?? ""))) return false;
    return length === undefined || length >= THRESHOLD_BYTES;
  }
}

/** write(chunk, [encoding], [callback]) and end([chunk], [encoding], [callback]), as Node reads their arguments. */
function writeArgs(args: unknown[]): [Chunk | undefined, BufferEncoding | undefined, Callback | undefined] {
  const [chunk, encoding, callback] = args;
  if (typeof chunk === "function") return [undefined, undefined, chunk as Callback];
  if (typeof encoding === "function") return [chunk as Chunk, undefined, encoding as Callback];
  return [chunk as Chunk | undefined, encoding as BufferEncoding | undefined, callback as Callback | undefined];
}

/**
 * Collects every piece written (for CompressOptions.whole) and hands the body over once the
 * response has finished compressed; gives up past `limit` bytes.
 */
function wholeBody(res: ServerResponse, compressed: () => boolean, give: (body: Buffer) => void, limit: number) {
  let pieces: Buffer[] | null = [];
  let bytes = 0;
  res.once("finish", () => {
    if (pieces && compressed()) give(Buffer.concat(pieces, bytes));
    pieces = null;
  });
  return (piece: Buffer) => {
    if (!pieces) return;
    bytes += piece.length;
    if (bytes > limit) pieces = null;
    else pieces.push(piece);
  };
}

/**
 * Chunks written and not yet passed on, with the callbacks of the writes that gave them;
 * `seen`, if given, sees each chunk as it comes.
 */
function heldPieces(seen?: (piece: Buffer) => void) {
  let chunks: Buffer[] = [];
  let callbacks: Callback[] = [];
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    add(chunk: Chunk | undefined, encoding?: BufferEncoding, callback?: Callback) {
      if (chunk != null) {
        const piece = toBuffer(chunk, encoding);
        seen?.(piece);
        chunks.push(piece);
        bytes += piece.length;
      }
      if (callback) callbacks.push(callback);
    },
    /** Everything held as one buffer, and what calls the held writes' callbacks (none: undefined). */
    take(): { body: Buffer; done: (() => void) | undefined } {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const taken = callbacks;
      chunks = [];
      callbacks = [];
      bytes = 0;
      return { body, done: taken.length > 0 ? () => taken.forEach((cb) => cb()) : undefined };
    },
  };
}

/** [name, value, name, value, …] as writeHead takes it, in pairs. */
function pairsOf(flat: unknown[]): [string, OutgoingHttpHeader][] {
  const pairs: [string, OutgoingHttpHeader][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([String(flat[i]), flat[i + 1] as OutgoingHttpHeader]);
  return pairs;
}

function toBuffer(chunk: Chunk, encoding: BufferEncoding | undefined): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === "string") return Buffer.from(chunk, encoding ?? "utf8");
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function addVary(res: ServerResponse, field: string): void {
  const current = res.getHeader("vary");
  const list = Array.isArray(current) ? current.join(",") : String(current ?? "");
  const names = list
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes("*") || names.includes(field.toLowerCase())) return;
  res.setHeader("Vary", names.length > 0 ? `${list}, ${field}` : field);
}
