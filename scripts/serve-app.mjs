/**
 * Serves the Next app (what `next start` / `next dev` would) behind the app's edge, as
 * WEB_CONCURRENCY processes behind one port (default: the core count; dev mode: one).
 *
 * The edge (lib/edge/serve.ts: the webhook door, the peer address, the page's
 * Content-Security-Policy, the request gate, compression) is the app's own TypeScript, loaded
 * here as a module through tsx's `tsImport` (the runtime that runs scripts/), with
 * lib/edge/tsconfig.json: the app's paths, and `server-only` as the empty module it is on a
 * server. The same edge runs in production and in dev mode. Nothing here reads Next's build or
 * imports Next's internals: Next is started through its documented custom-server API.
 *
 * node:cluster rather than SO_REUSEPORT (`reusePort`, Node 22.12 and later): the cluster primary
 * hands each connection to its workers in turn, so one busy process does not collect the load,
 * where the kernel's hash of SO_REUSEPORT can. The processes share nothing in memory:
 * sessions, the upstream budget and the job queue live in the database.
 *
 * The primary only supervises: a worker that dies unexpectedly is started again (after a short,
 * growing pause if it keeps dying); SIGTERM/SIGINT stop every worker, then the primary. Each
 * worker also stops by itself when the primary is gone (cluster's IPC channel, and the
 * exit-with-parent.cjs preload the launcher puts in NODE_OPTIONS).
 *
 * Plain JavaScript run by node, not tsx's CLI: Next's server loads without our loaders; only the
 * edge's module graph goes through tsx.
 * Usage: node scripts/serve-app.mjs [--dev]   (PORT from the environment, default 3000)
 */
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import nodeModule from "node:module";
import { tsImport } from "tsx/esm/api";

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
  /** @type {typeof import("../lib/edge/serve.ts")} */
  const { createEdge } = await tsImport("../lib/edge/serve.ts", {
    parentURL: import.meta.url,
    tsconfig: path.join(dir, "lib/edge/tsconfig.json"),
  });
  // tsx turns Node's source-map support on for the whole process and leaves it on; Next's server
  // chunks, loaded after this, would then each have their map read and kept (a bigger heap, a
  // major GC every few seconds under load: measured in the note of issue 38). Next handles its
  // own maps; the edge's stack traces read well enough as tsx's output.
  if (nodeModule.setSourceMapsSupport) nodeModule.setSourceMapsSupport(false);
  else process.setSourceMapsEnabled(false);
  const edge = createEdge({ dev, dir });
  const { default: next } = await import("next");
  const app = next({ dev, dir, port, hostname: "localhost" });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer(async (req, res) => {
    try {
      await edge(req, res, () => handle(req, res));
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
