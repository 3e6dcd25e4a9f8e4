/**
 * Serves the Next app (what `next start` / `next dev` would), adding six things:
 * - the upstream's webhook deliveries are answered ahead of Next, by the compiled route's own
 *   `answerDelivery` (lib/webhook-door.mjs: about a seventh of the CPU per delivery; not in
 *   dev mode);
 * - the socket's peer address, which Next does not hand to proxy.ts or route handlers. It goes
 *   into the header below on every request, replacing anything a client sent under that
 *   name, so lib/auth/client-address.ts can tell the real peer from X-Forwarded-For claims;
 * - the page's Content-Security-Policy with a fresh script nonce, in the request's own
 *   `content-security-policy` header, where Next reads the nonce for its scripts and proxy.ts
 *   reads the policy to send back (replacing anything a client sent under that name). Made
 *   here, it costs nothing; made in proxy.ts, handing it to the render meant rewriting the
 *   request's headers through Next, about 0.8 ms of CPU per page view;
 * - the request gate (lib/request-gate.mjs: the address's text rule, a verified session cookie,
 *   405s) ahead of Next, in place of proxy.ts's run of the same gate, which cost Next's proxy
 *   machinery about 0.9 ms of CPU per request; not in dev mode, where proxy.ts runs it. In both
 *   modes a request target reaches Next only as a path (an absolute-form URL by its path; `*` is a 400);
 * - zstd or gzip (lib/compress-response.mjs) in place of Next's gzip: a response finished in one
 *   turn of the event loop, as a route handler's JSON is, is compressed at once and sent in one
 *   write;
 * - WEB_CONCURRENCY app processes behind one port (default: the core count; dev mode: one).
 *   node:cluster rather than SO_REUSEPORT (`reusePort`, Node 22.12 and later): the cluster
 *   primary hands each connection to its workers in turn, so one busy process does not collect
 *   the load, where the kernel's hash of SO_REUSEPORT can. The processes share nothing in
 *   memory: sessions, the upstream budget and the job queue live in the database.
 *
 * The primary only supervises: a worker that dies unexpectedly is started again (after a short,
 * growing pause if it keeps dying); SIGTERM/SIGINT stop every worker, then the primary. Each
 * worker also stops by itself when the primary is gone (cluster's IPC channel, and the
 * exit-with-parent.cjs preload the launcher puts in NODE_OPTIONS).
 *
 * Plain JavaScript run by node, not tsx: Next's server must load without our loaders.
 * Usage: node scripts/serve-app.mjs [--dev]   (PORT from the environment, default 3000)
 */
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { compressResponse } from "./lib/compress-response.mjs";
import { freshContentSecurityPolicy } from "./security-headers.mjs";
import { isWebhookDelivery, loadWebhookHandler, serveWebhook } from "./lib/webhook-door.mjs";
import { loadGate, passGate } from "./lib/request-gate.mjs";

/** Keep in step with lib/auth/peer-address-header.ts. */
const PEER_ADDRESS_HEADER = "x-backoffice-peer-address";

const dev = process.argv.includes("--dev");
// As the `next` command does: its mode decides NODE_ENV unless one was given.
process.env.NODE_ENV ||= dev ? "development" : "production";
const port = Number(process.env.PORT ?? 3000);
const dir = path.resolve(import.meta.dirname, "..");
const processes = dev ? 1 : webConcurrency(process.env.WEB_CONCURRENCY);

if (processes > 1 && cluster.isPrimary) supervise(processes);
else await serve();

function webConcurrency(value) {
  if (value === undefined || value === "") return os.availableParallelism();
  const n = Number(value);
  if (Number.isInteger(n) && n >= 1 && n <= 64) return n;
  console.error(`[serve-app] WEB_CONCURRENCY must be a whole number from 1 to 64 (got "${value}")`);
  process.exit(1);
}

async function serve() {
  const { default: next } = await import("next");
  const app = next({ dev, dir, port, hostname: "localhost" });
  const handle = app.getRequestHandler();
  await app.prepare();
  const webhook = dev
    ? null
    : await loadWebhookHandler(dir).catch((error) => {
        console.error(
          `[serve-app] webhooks go through Next: the compiled route did not load (${error instanceof Error ? error.message : error})`,
        );
        return null;
      });
  const gate = dev
    ? null
    : await loadGate(dir).catch((error) => {
        console.error(
          `[serve-app] proxy.ts gates every request: the compiled gate did not load (${error instanceof Error ? error.message : error})`,
        );
        return null;
      });

  const server = http.createServer(async (req, res) => {
    if (webhook && isWebhookDelivery(req)) return void serveWebhook(webhook, req, res);
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
    const csp = freshContentSecurityPolicy({ dev });
    req.headers["content-security-policy"] = csp;
    try {
      if (!(await passGate(gate, req, res, csp))) return;
      compressResponse(req, res);
      await handle(req, res);
    } catch (error) {
      console.error("[serve-app] request failed:", error instanceof Error ? error.message : error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal error");
    }
  });
  server.listen(port, () => {
    // One line for the whole app: the primary prints it once every worker listens.
    if (cluster.isWorker) process.send?.({ ready: true });
    else console.log(`[serve-app] ready on port ${port}${dev ? " (dev)" : ""}`);
  });

  function stop() {
    server.close(() => process.exit(0));
    // Keep-alive connections would hold close() open; they get a moment, not forever.
    setTimeout(() => process.exit(0), 3000).unref();
    server.closeIdleConnections();
  }
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

function supervise(count) {
  let stopping = false;
  let ready = 0;
  const recentCrashes = [];
  const start = () => {
    const worker = cluster.fork();
    worker.on("message", (message) => {
      if (message?.ready && ++ready === count)
        console.log(`[serve-app] ready on port ${port} (${count} processes, WEB_CONCURRENCY)`);
    });
  };
  cluster.on("exit", (worker, code, signal) => {
    const left = Object.keys(cluster.workers ?? {}).length;
    // Stopped on purpose (a signal to it alone, or to the whole group on Ctrl-C): not replaced.
    if (stopping || (code === 0 && !signal)) {
      if (left === 0) process.exit(0);
      return;
    }
    console.error(`[serve-app] app process ${worker.process.pid} stopped (${signal ?? `code ${code}`}); starting another`);
    // A process that dies at once again and again (a broken build) must not spin a core.
    const now = Date.now();
    recentCrashes.push(now);
    while (recentCrashes.length > 0 && recentCrashes[0] < now - 60_000) recentCrashes.shift();
    setTimeout(start, Math.min(30_000, 100 * 2 ** Math.max(0, recentCrashes.length - 1)));
  });
  for (let i = 0; i < count; i++) start();

  function stop() {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill("SIGTERM");
    // Each worker gives its keep-alive connections 3 s; after that nobody waits for it.
    setTimeout(() => process.exit(0), 5000).unref();
  }
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
