/**
 * `npm run bench:reports`: the spend report of the last 30 days at 100,000 orders (BENCH_ORDERS over
 * BENCH_DAYS, default 30: the month holds them all; 300,000 over 90 puts the month in a longer history). The embedded database on BENCH_DB_PORT (default 26620), migrated and
 * filled straight in SQL (bench/lib/seed-at-scale.ts: several buyers and a storefront, every
 * state, three currencies, 40 products, which are given catalog facts here), in a data folder of
 * its own (.data/bench-reports; BENCH_KEEP_DATA=1 keeps it for the next run). No app, no build:
 * the report's domain functions are called directly, as the page and the CSV route call them.
 *
 * Times, by turns (each grouping once per round, BENCH_ROUNDS rounds, default 5, so a busy
 * moment of a shared machine falls on every grouping alike): finance's report of the whole
 * span per day for each grouping (with its tie to the wallet), a buyer's own report, and the
 * CSV's first byte and whole stream with the process's peak RSS growth. Prints the median and
 * the worst against the targets (report 2 s, CSV first byte 1 s), PASS or FAIL.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { seedOrReuse } from "./lib/kept-data";
import { benchNumber } from "./lib/setting";

const ROOT = path.resolve(import.meta.dirname, "..");
const ORDERS = benchNumber("BENCH_ORDERS", 100_000, { min: 1 });
const DAYS = benchNumber("BENCH_DAYS", 30, { min: 1 });
const ROUNDS = benchNumber("BENCH_ROUNDS", 5, { min: 1 });
const PORT = benchNumber("BENCH_DB_PORT", 26620, { min: 1, max: 65535 });
const KEEP = process.env.BENCH_KEEP_DATA === "1";
const dataDir = path.resolve(ROOT, KEEP ? `.data/bench-reports-${ORDERS}-over-${DAYS}-days` : ".data/bench-reports");

if (!KEEP) await rm(dataDir, { recursive: true, force: true });
const { startEmbeddedDb } = await import("@/lib/db/embedded");
const { migrate } = await import("@/lib/db/migrate");
const embedded = await startEmbeddedDb({ dataDir: path.join(dataDir, "pglite"), port: PORT });
try {
  process.env.DATABASE_URL = embedded.url;
  process.env.AUTH_SECRET ??= "bench-only-secret-not-used-for-any-session";
  await migrate(embedded.url, path.join(ROOT, "prisma/migrations"));
  const { seedDemoStaff } = await import("@/lib/staff/seed-demo");
  await seedDemoStaff(process.env.DEMO_PASSWORD);
  const seconds = await seedOrReuse(embedded.url, dataDir, { orders: ORDERS, days: DAYS });
  console.log(
    seconds === null
      ? `kept: ${ORDERS} orders over ${DAYS} days`
      : `seeded ${ORDERS} orders over ${DAYS} days in ${seconds.toFixed(0)} s`,
  );
  await run();
} finally {
  const { db } = await import("@/lib/db/client");
  await db().$disconnect();
  await embedded.stop();
}

async function run() {
  const { db } = await import("@/lib/db/client");
  const { getSpendReport } = await import("@/lib/reports/get-spend-report");
  const { exportSpendReportCsv } = await import("@/lib/reports/export-spend-report");
  const { REPORT_GROUPS, reportFilterSchema, isoDay } = await import("@/lib/reports/report-period");
  // The seeded products as the catalog would have described them: four countries, three types.
  await db().$executeRaw`
    INSERT INTO "CatalogProductState" ("productId", "name", "productType", "countryCode", "category", "currency",
                                       "isAvailable", "prices", "reference", "observedAt")
    SELECT 'prod_bench_' || i, 'Bench product ' || i, (ARRAY['gift-card', 'esim', 'phone-top-up'])[1 + i % 3],
           (ARRAY['US', 'GB', 'DE', 'FR'])[1 + i % 4], (ARRAY['Gaming', 'Books', 'Mobile Data'])[1 + i % 3], 'USD',
           true, '{}', '{}', now()
    FROM generate_series(0, 39) i
    ON CONFLICT ("productId") DO NOTHING`;
  const actorOf = async (email: string) => {
    const s = await db().staff.findUniqueOrThrow({ where: { email } });
    return { staffId: s.id, email: s.email, name: s.name, roles: s.roles };
  };
  const finance = await actorOf("finance@demo.local");
  const buyer = await actorOf("buyer@demo.local");
  const now = new Date();
  const filter = (by: string) =>
    reportFilterSchema.parse({
      period: "custom",
      from: isoDay(new Date(now.getTime() - 30 * 86_400_000)),
      to: isoDay(now),
      grain: "day",
      by,
    });

  const times = new Map<string, number[]>();
  const record = (name: string, ms: number) => times.set(name, [...(times.get(name) ?? []), ms]);
  const time = async (name: string, fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    record(name, performance.now() - started);
  };
  const first = await getSpendReport(finance, filter("product"));
  const counted = first.currencies.reduce((sum, c) => sum + c.total.orders, 0);
  console.log(
    `the last 30 days hold ${counted} orders; ${first.currencies.map((c) => `${c.currency} ties: ${c.tie?.unexplainedMinor === 0n}`).join(", ")}`,
  );
  let peakGrowthMb = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const by of REPORT_GROUPS) await time(`report by ${by}`, () => getSpendReport(finance, filter(by)));
    await time("a buyer's own report by product", () => getSpendReport(buyer, filter("product")));
    const before = process.memoryUsage().rss;
    let peak = before;
    const started = performance.now();
    const reader = (await exportSpendReportCsv(finance, filter("product"))).getReader();
    let firstByte = 0;
    for (;;) {
      const { done } = await reader.read();
      if (!firstByte) firstByte = performance.now() - started;
      peak = Math.max(peak, process.memoryUsage().rss);
      if (done) break;
    }
    record("CSV first byte", firstByte);
    record("CSV whole", performance.now() - started);
    peakGrowthMb = Math.max(peakGrowthMb, (peak - before) / 2 ** 20);
  }
  console.log(`\nthe last 30 days of ${ORDERS} orders over ${DAYS} days, ${ROUNDS} rounds by turns (ms):`);
  for (const [name, samples] of times) {
    const sorted = samples.toSorted((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const worst = sorted.at(-1)!;
    const target = name === "CSV first byte" ? 1000 : name === "CSV whole" ? null : 2000;
    const verdict = target === null ? "" : `  target ${target}  ${worst <= target ? "PASS" : "FAIL"}`;
    console.log(`  ${name.padEnd(36)} median ${median.toFixed(0).padStart(5)}  worst ${worst.toFixed(0).padStart(5)}${verdict}`);
  }
  console.log(`  CSV peak RSS growth ${peakGrowthMb.toFixed(1)} MB`);
}
