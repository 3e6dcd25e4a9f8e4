/**
 * Serves the Next app (what `next start` / `next dev` would) behind the app's edge
 * (lib/edge/serve.ts, loaded through tsx's `tsImport`), as WEB_CONCURRENCY node:cluster
 * processes behind one port (default: the core count; dev mode: one). Next is started through
 * its documented custom-server API. The primary only supervises: a dead worker is restarted by
 * scripts/lib/restart-policy.mjs; SIGTERM/SIGINT stop every worker gracefully (README,
 * "Supervision and stopping"), then the primary; a worker stops by itself when the primary is
 * gone. Why cluster and not SO_REUSEPORT: docs/decisions/0016-app-processes-through-node-cluster.md.
 * Usage: node scripts/serve-app.mjs [--dev]   (PORT from the environment, default 3000)
 */
import cluster from "node:cluster";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import nodeModule from "node:module";
import { tsImport } from "tsx/esm/api";
import { createRestartPolicy } from "./lib/restart-policy.mjs";

/** How long a stopping app process lets the requests it has received finish. */
const WEB_STOP_GRACE_MS = 15_000;

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

  let stopping = false;
  const inFlight = new Set();
  const server = http.createServer(async (req, res) => {
    // While stopping, each answer closes its connection: the client opens no more on this process.
    if (stopping) res.setHeader("connection", "close");
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
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
    if (stopping) return;
    stopping = true;
    console.log(
      `[serve-app] app process ${process.pid} stopping: no new connections, answering the ${inFlight.size} request(s) it has`,
    );
    for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
    // net.Server's close (http.Server extends it): stop accepting, keep the open connections
    // until each has answered. http.Server's own close() also drops every connection that looks
    // idle at once, which includes one whose request is still unread in its socket on a busy
    // process: that client got a reset (docs/decisions/2026-11-28-graceful-stop.md).
    net.Server.prototype.close.call(server, () => process.exit(0));
    setTimeout(() => {
      server.closeAllConnections();
      process.exit(0);
    }, WEB_STOP_GRACE_MS).unref();
  }
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

function supervise(count) {
  let stopping = false;
  let exitCode = 0;
  let ready = 0;
  const policy = createRestartPolicy();
  const startedAt = new Map(); // cluster worker id → when it started
  const start = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    worker.on("message", (message) => {
      if (message?.ready && ++ready === count)
        console.log(`[serve-app] ready on port ${port} (${count} processes, WEB_CONCURRENCY)`);
    });
  };
  cluster.on("exit", (worker, code, signal) => {
    const left = Object.keys(cluster.workers ?? {}).length;
    // Stopped on purpose (a signal to it alone, or to the whole group on Ctrl-C): not replaced.
    if (stopping || (code === 0 && !signal)) {
      if (left === 0) process.exit(exitCode);
      return;
    }
    const how = signal ? `killed by ${signal}` : `exit code ${code}`;
    // A process that dies at once again and again (a broken build) must not spin a core.
    const delay = policy.crashed(startedAt.get(worker.id) ?? Date.now());
    startedAt.delete(worker.id);
    if (delay === null) {
      console.error(
        `[serve-app] app process ${worker.process.pid} stopped (${how}), its ${policy.crashes}th crash without a healthy minute between: giving up, exiting with code 1`,
      );
      stop(1);
      return;
    }
    console.error(`[serve-app] app process ${worker.process.pid} stopped (${how}); starting another in ${delay / 1000} s`);
    setTimeout(() => {
      if (!stopping) start();
    }, delay);
  });
  for (let i = 0; i < count; i++) start();

  function stop(code = 0) {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(code);
    for (const worker of workers) worker?.process.kill("SIGTERM");
    // Each worker answers what it has received within WEB_STOP_GRACE_MS; after that nobody waits for it.
    setTimeout(() => process.exit(code), WEB_STOP_GRACE_MS + 2_000).unref();
  }
  process.on("SIGTERM", () => stop());
  process.on("SIGINT", () => stop());
}
