import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer as InstalledServer } from "@electric-sql/pglite-socket";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "@/lib/db/embedded";
import { socketPatch } from "../support/pglite-socket-patch";

/**
 * Why pglite-socket is patched, shown on the version installed: the same concurrent calls
 * against the package as shipped (rebuilt from the patch's
 * removed lines) and as installed (patched). The shipped queue hands PGlite's one session from
 * message to message, so one connection's Bind meets another's Parse; the patched one keeps
 * each connection's messages together. When the shipped package stops mixing them, the first
 * test fails: the patch is then no longer needed.
 */
type Server = { start(): Promise<void>; stop(): Promise<void> };
type ServerClass = new (options: { db: PGlite; port: number; host: string; maxConnections: number }) => Server;

let shippedDir: string;
let Shipped: ServerClass;

beforeAll(async () => {
  shippedDir = await mkdtemp(path.join(os.tmpdir(), "pglite-socket-shipped-"));
  await mkdir(path.join(shippedDir, "dist"));
  // Without the source map comment: the map is not copied.
  for (const [file, text] of socketPatch().files)
    await writeFile(path.join(shippedDir, file), text.replace(/^\/\/# sourceMappingURL=.*$/m, ""));
  await writeFile(path.join(shippedDir, "package.json"), JSON.stringify({ type: "module" }));
  // The ESM entry only re-exports the chunk: import the chunk's server class through it.
  const entry = path.join(shippedDir, "dist/index.js");
  await writeFile(entry, 'export { g as PGLiteSocketServer } from "./chunk-4D4OME7M.js";\n');
  ({ PGLiteSocketServer: Shipped } = (await import(/* @vite-ignore */ pathToFileURL(entry).href)) as {
    PGLiteSocketServer: ServerClass;
  });
});
afterAll(() => rm(shippedDir, { recursive: true, force: true }));

/**
 * 300 calls at once through a pool of 8 connections, as the app makes them: an upsert that
 * returns its row, a short transaction, a query with its own statement text; how many went
 * wrong (no row returned, a wrong answer, an error). The shipped queue also stops serving after
 * a failed message: a 2 s query timeout ends that wait.
 */
async function wrongAnswers(Server: ServerClass): Promise<number> {
  const db = await PGlite.create();
  await db.exec(`CREATE TABLE budget (w int PRIMARY KEY, used int NOT NULL); CREATE TABLE setting (key text PRIMARY KEY)`);
  const port = await freePort();
  const server = new Server({ db, port, host: "127.0.0.1", maxConnections: 20 });
  await server.start();
  const pool = new pg.Pool({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    max: 8,
    query_timeout: 2_000,
  });
  let wrong = 0;
  const upsert = async () => {
    const { rows } = await pool.query(
      `INSERT INTO budget (w, used) VALUES ($1, 1)
       ON CONFLICT (w) DO UPDATE SET used = budget.used + 1 WHERE budget.used < $2 RETURNING used`,
      [1, 1_000_000],
    );
    if (rows.length !== 1) wrong += 1;
  };
  const transaction = async (i: number) => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(`INSERT INTO setting (key) VALUES ($1)`, [`k${i}`]);
      await client.query(i % 10 === 0 ? "ROLLBACK" : "COMMIT");
    } finally {
      client.release();
    }
  };
  const own = async (i: number) => {
    const { rows } = await pool.query(`SELECT $1::int + ${i % 7} AS n`, [i]);
    if (rows[0]?.n !== i + (i % 7)) wrong += 1;
  };
  try {
    const calls = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? upsert() : i % 3 === 1 ? transaction(i) : own(i)));
    for (const outcome of await Promise.allSettled(calls)) if (outcome.status === "rejected") wrong += 1;
    return wrong;
  } finally {
    await pool.end().catch(() => {});
    await server.stop();
    await db.close();
  }
}

describe("pglite-socket's query queue under concurrent connections", () => {
  test("as shipped, it mixes the extended-query messages of connections: answers go wrong", async () => {
    expect(await wrongAnswers(Shipped)).toBeGreaterThan(0);
  });

  test("as patched (installed), every connection gets its own answers", async () => {
    expect(await wrongAnswers(InstalledServer as unknown as ServerClass)).toBe(0);
  });

  test("as patched, the CommonJS build too (a require() of the package loads that one)", async () => {
    const { PGLiteSocketServer } = createRequire(import.meta.url)("@electric-sql/pglite-socket") as {
      PGLiteSocketServer: ServerClass;
    };
    expect(PGLiteSocketServer).not.toBe(InstalledServer);
    expect(await wrongAnswers(PGLiteSocketServer)).toBe(0);
  });
});
