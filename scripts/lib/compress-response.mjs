/**
 * Gzip for the responses Next serves, in place of Next's own `compress` (turned off in
 * next.config.mjs). Next's compresses every response as a stream on zlib's thread pool: a
 * JSON answer of 30 KB went out as a gzip header, the data and a trailer, each a trip through
 * the pool and a socket write of its own, about 2 ms after the handler had finished
 * (`npm run bench:proxy`). Here what is written in one turn of the event loop is held until
 * the turn ends, so a response that ends in that turn (a route handler's JSON, a small page) is
 * compressed at once and sent with its headers in one write, with a Content-Length. A response
 * still being written after that (a streamed page, a CSV export, a static file) continues as a
 * gzip stream, flushed at the end of each turn in which something was written, so the browser
 * gets each part as soon as it would have without compression.
 *
 * Compressed: a client that accepts gzip, a compressible type (text, JSON, JavaScript, XML,
 * SVG), 1 KB or more when the length is known, a status with a body that is not a range, no
 * Content-Encoding already and no `Cache-Control: no-transform`. Compressible types get
 * `Vary: Accept-Encoding` whether compressed or not, as the `compression` package Next uses
 * does.
 *
 * @typedef {import("node:http").IncomingMessage} IncomingMessage
 * @typedef {import("node:http").ServerResponse} ServerResponse
 */
import zlib from "node:zlib";

/** Below this, gzip's header and trailer eat most of the saving (the `compression` default). */
export const THRESHOLD_BYTES = 1024;
/** A body held longer than one turn, or larger than this, goes on as a stream (no gzipSync of megabytes). */
const MAX_HELD_BYTES = 1 << 20;
const COMPRESSIBLE =
  /^\s*(?:text\/[^;\s]+|application\/(?:json|javascript|ecmascript|xml|x-javascript|[\w.-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

/** Whether an Accept-Encoding header allows gzip (by name or `*`, with a q above 0). */
export function acceptsGzip(header) {
  if (typeof header !== "string") return false;
  return header.split(",").some((part) => {
    const [name = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (name !== "gzip" && name !== "*") return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * Compresses what `res` sends, if the response turns out to be worth it. Call before handing
 * `req` and `res` to Next. The response's methods are wrapped; nothing else is changed.
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 */
export function compressResponse(req, res) {
  const accepts = req.method !== "HEAD" && acceptsGzip(req.headers["accept-encoding"]);
  const original = { writeHead: res.writeHead, write: res.write, end: res.end, flushHeaders: res.flushHeaders };
  /** "holding" until the first part is sent; then "sent" (as gzip or as it is). */
  let mode = "holding";
  /** @type {Buffer[]} */
  let held = [];
  let heldBytes = 0;
  /** @type {(() => void)[]} */
  let heldCallbacks = [];
  /** @type {NodeJS.Immediate | undefined} */
  let turnEnd;

  const plain = () => {
    mode = "sent";
    res.writeHead = original.writeHead;
    res.write = original.write;
    res.end = original.end;
    res.flushHeaders = original.flushHeaders;
  };

  /** Headers given to writeHead become the response's now; they are sent with the body. */
  res.writeHead = function writeHead(statusCode, reason, headers) {
    if (mode !== "holding") return original.writeHead.apply(this, arguments);
    if (typeof reason !== "string") [reason, headers] = [undefined, reason];
    res.statusCode = statusCode;
    if (reason !== undefined) res.statusMessage = reason;
    if (Array.isArray(headers)) {
      const pairs = Array.isArray(headers[0]) ? headers : pairsOf(headers);
      for (const [name, value] of pairs) res.appendHeader(name, value);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    }
    return res;
  };

  res.flushHeaders = function flushHeaders() {
    if (mode !== "holding") return original.flushHeaders.call(this);
    turnEnd ??= setImmediate(release);
  };

  // Until release() or the end, the response is held; after, these are the originals again
  // (or, for a gzip stream, release()'s own).
  res.write = function write(chunk, encoding, callback) {
    if (typeof encoding === "function") [encoding, callback] = [undefined, encoding];
    const bytes = toBuffer(chunk, encoding);
    held.push(bytes);
    heldBytes += bytes.length;
    if (callback) heldCallbacks.push(callback);
    if (heldBytes > MAX_HELD_BYTES) release();
    else turnEnd ??= setImmediate(release);
    return true;
  };

  res.end = function end(chunk, encoding, callback) {
    if (typeof chunk === "function") [chunk, encoding, callback] = [undefined, undefined, chunk];
    else if (typeof encoding === "function") [encoding, callback] = [undefined, encoding];
    if (chunk != null) {
      const bytes = toBuffer(chunk, encoding);
      held.push(bytes);
      heldBytes += bytes.length;
    }
    if (turnEnd) clearImmediate(turnEnd);
    turnEnd = undefined;
    // A body this large is compressed as a stream, on zlib's thread pool, not here at once.
    if (heldBytes > MAX_HELD_BYTES) {
      release();
      return res.end(callback);
    }
    // Ended in the turn it was written in: the whole body is known.
    const body = held.length === 1 ? held[0] : Buffer.concat(held);
    const callbacks = heldCallbacks;
    held = [];
    heldCallbacks = [];
    const compress = decide(body.length);
    plain();
    for (const cb of callbacks) res.once("finish", cb);
    if (!compress) return original.end.call(res, body.length > 0 ? body : undefined, callback);
    const gzipped = zlib.gzipSync(body);
    res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", gzipped.length);
    return original.end.call(res, gzipped, callback);
  };

  /** The response goes on past this turn: send what is held, as gzip or as it is. */
  function release() {
    turnEnd = undefined;
    if (mode !== "holding") return;
    const body = Buffer.concat(held);
    const callbacks = heldCallbacks;
    held = [];
    heldCallbacks = [];
    const declared = Number(res.getHeader("content-length"));
    const compress = decide(Number.isFinite(declared) ? declared : undefined);
    plain();
    if (!compress) {
      if (body.length > 0 || callbacks.length > 0) original.write.call(res, body, () => callbacks.forEach((cb) => cb()));
      else original.flushHeaders.call(res);
      return;
    }
    res.setHeader("Content-Encoding", "gzip");
    res.removeHeader("Content-Length");
    const stream = zlib.createGzip();
    // What is written in a turn goes into the gzip stream at the turn's end, as one piece, and
    // is flushed, so it reaches the client then, as it would unzipped. One piece per turn, not
    // per write: zlib runs each piece on its thread pool, and an export writes line by line.
    let pending = [body];
    let pendingBytes = body.length;
    let pendingCallbacks = callbacks;
    /** A writer was told to wait (write() returned false) and is owed a drain. */
    let owesDrain = false;
    /** @type {NodeJS.Immediate | undefined} */
    let nextPiece;
    const takePending = () => {
      const bytes = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      const cbs = pendingCallbacks;
      pending = [];
      pendingBytes = 0;
      pendingCallbacks = [];
      return { bytes, done: cbs.length > 0 ? () => cbs.forEach((cb) => cb()) : undefined };
    };
    const sendPending = () => {
      nextPiece = undefined;
      if (stream.destroyed) return;
      const { bytes, done } = takePending();
      const ok = stream.write(bytes, done);
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
    res.write = function write(chunk, encoding, callback) {
      if (typeof encoding === "function") [encoding, callback] = [undefined, encoding];
      const bytes = toBuffer(chunk, encoding);
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (callback) pendingCallbacks.push(callback);
      nextPiece ??= setImmediate(sendPending);
      if (pendingBytes + stream.writableLength < stream.writableHighWaterMark) return true;
      owesDrain = true;
      return false;
    };
    res.end = function end(chunk, encoding, callback) {
      if (typeof chunk === "function") [chunk, encoding, callback] = [undefined, undefined, chunk];
      else if (typeof encoding === "function") [encoding, callback] = [undefined, encoding];
      if (callback) res.once("finish", callback);
      if (chunk != null) pending.push(toBuffer(chunk, encoding));
      if (nextPiece) clearImmediate(nextPiece);
      nextPiece = undefined;
      const { bytes, done } = takePending();
      if (done) res.once("finish", done);
      stream.end(bytes);
      return res;
    };
    stream.on("data", (data) => {
      if (original.write.call(res, data) === false) stream.pause();
    });
    res.on("drain", () => stream.resume());
    stream.on("end", () => original.end.call(res));
    stream.on("error", (error) => res.destroy(error));
    res.once("close", () => {
      if (nextPiece) clearImmediate(nextPiece);
      stream.destroy();
    });
    sendPending();
  }

  /** Whether to compress, `length` being the body's size when known; sets Vary for compressible types. */
  function decide(length) {
    const type = res.getHeader("content-type");
    if (typeof type !== "string" || !COMPRESSIBLE.test(type)) return false;
    addVary(res, "Accept-Encoding");
    if (!accepts) return false;
    const status = res.statusCode;
    if (status < 200 || status === 204 || status === 206 || status === 304) return false;
    if (res.getHeader("content-encoding") !== undefined) return false;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader("cache-control") ?? ""))) return false;
    return length === undefined || length >= THRESHOLD_BYTES;
  }
}

/** @param {unknown[]} flat [name, value, name, value, …] as writeHead takes it */
function pairsOf(flat) {
  const pairs = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  return pairs;
}

function toBuffer(chunk, encoding) {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === "string") return Buffer.from(chunk, encoding ?? "utf8");
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function addVary(res, field) {
  const current = res.getHeader("vary");
  const list = Array.isArray(current) ? current.join(",") : String(current ?? "");
  const names = list
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes("*") || names.includes(field.toLowerCase())) return;
  res.setHeader("Vary", names.length > 0 ? `${list}, ${field}` : field);
}
