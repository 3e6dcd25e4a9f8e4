/**
 * Seeds the bench's kept data folder (bench/lib/kept-data.ts) without starting the app, so no
 * build is needed: the embedded database on BENCH_DB_PORT, migrated, the demo staff (password
 * DEMO_PASSWORD), then BENCH_ORDERS orders over BENCH_DAYS. `npm run bench:pages` runs it as its
 * first step when BENCH_KEEP_DATA=1; by hand: BENCH_KEEP_DATA=1 BENCH_ORDERS=… tsx --conditions=react-server bench/seed-kept.ts
 */
import path from "node:path";
import { seedOrReuse } from "./lib/kept-data";
import { benchNumber } from "./lib/setting";

const ROOT = path.resolve(import.meta.dirname, "..");
const dataDir = path.resolve(ROOT, process.env.DATA_DIR ?? ".data/bench-pages");
const orders = benchNumber("BENCH_ORDERS", 100_000, { min: 1 });
const days = benchNumber("BENCH_DAYS", 90, { min: 1 });
const port = benchNumber("BENCH_DB_PORT", 26614, { min: 1, max: 65535 });

const { startEmbeddedDb } = await import("@/lib/db/embedded");
const { migrate } = await import("@/lib/db/migrate");
const db = await startEmbeddedDb({ dataDir: path.join(dataDir, "pglite"), port });
try {
  process.env.DATABASE_URL = db.url;
  process.env.AUTH_SECRET ??= "bench-only-secret-not-used-for-any-session";
  await migrate(db.url, path.join(ROOT, "prisma/migrations"));
  const { seedDemoStaff } = await import("@/lib/staff/seed-demo");
  await seedDemoStaff(process.env.DEMO_PASSWORD);
  const seconds = await seedOrReuse(db.url, dataDir, { orders, days });
  console.log(
    seconds === null
      ? `kept: ${orders} orders over ${days} days in ${path.relative(ROOT, dataDir)}`
      : `seeded ${orders} orders over ${days} days in ${seconds.toFixed(0)} s (${path.relative(ROOT, dataDir)})`,
  );
} finally {
  const { db: prisma } = await import("@/lib/db/client");
  await prisma().$disconnect();
  await db.stop();
}
