import { mkdir } from "node:fs/promises";
import net from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/**
 * The embedded PostgreSQL of local mode: PGlite (PostgreSQL compiled to WebAssembly)
 * served on a loopback port so that the app connects to it exactly as to a real server.
 * `dataDir` undefined keeps everything in memory (tests).
 */
export type EmbeddedDb = { url: string; stop(): Promise<void> };

export async function startEmbeddedDb(options: { dataDir?: string; port?: number } = {}): Promise<EmbeddedDb> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  // pg_trgm backs the "contains" searches (client reference, actor): the migrations create it.
  const db = await PGlite.create({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), extensions: { pg_trgm } });
  const port = options.port ?? (await freePort());
  // maxConnections above 1: with 1, an error in one query kills the next connection's query (seen with
  // pglite-socket 0.2). Over the cap a client is refused, so it is generous: each app process
  // (WEB_CONCURRENCY of them) pools up to 5, the worker 8; a connection costs only a socket here.
  // Its query queue keeps one connection's message group together: patched (patches/, applied on
  // install; tests/integration/pglite-socket-patch.test.ts fails when the installed version is another).
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: 200 });
  await server.start();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
