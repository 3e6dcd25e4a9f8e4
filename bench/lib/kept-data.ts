import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { upkeepWithoutAutovacuum } from "@/lib/db/upkeep";
import { rewriteOrdersInOneGo, seedAtScale } from "./seed-at-scale";

/**
 * A bench's data folder kept between runs: seeding a million orders into the embedded database
 * takes many minutes on two cores, so it is done once and reused. `seeded.json` in the folder says
 * what it holds; another count or span (or no such file) seeds afresh. The folder goes back to
 * the spread-out shape before it is used, so that a run stopped after the write in one go does
 * not measure that shape as the first.
 */
export type KeptShape = { orders: number; days: number; writtenInOneGo: number };

export function keptShape(dataDir: string): KeptShape | null {
  const file = path.join(dataDir, "seeded.json");
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, "utf8")) as KeptShape;
}

export function recordShape(dataDir: string, shape: KeptShape): void {
  writeFileSync(path.join(dataDir, "seeded.json"), JSON.stringify(shape));
}

/**
 * Seeds a migrated database with `orders` over `days` unless `dataDir` already holds them (then
 * writes back any orders a run wrote in one go). Returns the seconds seeding took, or null when kept.
 */
export async function seedOrReuse(
  databaseUrl: string,
  dataDir: string,
  { orders, days }: { orders: number; days: number },
): Promise<number | null> {
  const kept = keptShape(dataDir);
  if (kept && kept.orders === orders && kept.days === days) {
    if (kept.writtenInOneGo > 0) {
      await rewriteOrdersInOneGo(databaseUrl, { orders, days, written: kept.writtenInOneGo, inOneGo: false });
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await upkeepWithoutAutovacuum(async (sql) => (await client.query(sql)).rows).finally(() => client.end());
      recordShape(dataDir, { orders, days, writtenInOneGo: 0 });
    }
    return null;
  }
  if (kept)
    throw new Error(`${dataDir} holds ${kept.orders} orders over ${kept.days} days: remove it to seed ${orders} over ${days}`);
  const started = performance.now();
  await seedAtScale(databaseUrl, orders, days);
  recordShape(dataDir, { orders, days, writtenInOneGo: 0 });
  return (performance.now() - started) / 1000;
}
