/**
 * Serves the Next app (what `next start` / `next dev` would), adding one thing: the
 * socket's peer address, which Next does not hand to proxy.ts or route handlers. It goes
 * into the header below on every request, replacing anything a client sent under that
 * name, so lib/auth/client-address.ts can tell the real peer from X-Forwarded-For claims.
 *
 * Plain JavaScript run by node, not tsx: Next's server must load without our loaders.
 * Usage: node scripts/serve-app.mjs [--dev]   (PORT from the environment, default 3000)
 */
import http from "node:http";
import path from "node:path";

/** Keep in step with lib/auth/peer-address-header.ts. */
const PEER_ADDRESS_HEADER = "x-backoffice-peer-address";

const dev = process.argv.includes("--dev");
// As the `next` command does: its mode decides NODE_ENV unless one was given.
process.env.NODE_ENV ||= dev ? "development" : "production";
const port = Number(process.env.PORT ?? 3000);
const dir = path.resolve(import.meta.dirname, "..");

const { default: next } = await import("next");
const app = next({ dev, dir, port, hostname: "localhost" });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
  handle(req, res).catch((error) => {
    console.error("[serve-app] request failed:", error instanceof Error ? error.message : error);
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("Internal error");
  });
});
server.listen(port, () => console.log(`[serve-app] ready on port ${port}${dev ? " (dev)" : ""}`));

function stop() {
  server.close(() => process.exit(0));
  // Keep-alive connections would hold close() open; they get a moment, not forever.
  setTimeout(() => process.exit(0), 3000).unref();
  server.closeIdleConnections();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
