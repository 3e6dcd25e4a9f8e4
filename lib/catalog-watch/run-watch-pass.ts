import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { readSettings } from "@/lib/settings/get-settings";
import { toProductView, type ProductType } from "@/lib/catalog/product-view";
import type { ServiceClient } from "@/lib/upstream/client";
import { spentByJob, upstream } from "@/lib/upstream/service";
import { notifyChanges } from "./notify-changes";
import { recordObservations, type Observed } from "./record-observations";
import { matchesGroup, TYPE_CATEGORY, type GroupTarget } from "./watch-target";

export const WATCH_JOB = "catalog-watch";
/** The multi-product refresh takes at most 100 ids a call; a group read at most 100 products a page. */
const PER_CALL = 100;
const MAX_GROUP_PAGES = 5;

/** The watch job's calls: background class, its own name on the budget chart, waiting up to a minute for room. */
const CALL = { priority: "background", deadlineMs: 60_000, by: spentByJob(WATCH_JOB), fresh: true } as const;

/**
 * One pass of the catalog watch: reads the watched products (a hundred a call) and each watched
 * brand or country (a page a call), `gapMs` apart so that many watches spread their reads over
 * the pass instead of bursting; records what changed (./record-observations.ts) and tells the
 * watchers (./notify-changes.ts). A read the budget refuses (the minute stayed full past the
 * deadline) ends the pass; the next pass reads again.
 */
export async function runWatchPass(
  options: { client?: ServiceClient; gapMs?: number; now?: () => Date } = {},
): Promise<{ calls: number; recorded: number; notified: number }> {
  const client = options.client ?? upstream();
  const now = options.now ?? (() => new Date());
  const { catalogWatchThresholdPercent: threshold } = await readSettings();
  const watches = await db().catalogWatch.findMany({
    select: { key: true, productId: true, productType: true, brand: true, countryCode: true, baselineAt: true },
  });
  const productIds = [...new Set(watches.flatMap((w) => w.productId ?? []))];
  const groups = new Map<string, GroupTarget & { baselined: boolean }>();
  for (const w of watches) {
    if (w.productId !== null || w.productType === null) continue;
    const seen = groups.get(w.key);
    groups.set(w.key, {
      productType: w.productType as ProductType,
      brand: w.brand,
      countryCode: w.countryCode,
      baselined: (seen?.baselined ?? true) && w.baselineAt !== null,
    });
  }

  let calls = 0;
  let recorded = 0;
  const pace = async () => {
    if (calls > 0 && options.gapMs) await sleep(options.gapMs);
    calls += 1;
  };
  try {
    for (let i = 0; i < productIds.length; i += PER_CALL) {
      await pace();
      const page = await client.listProducts({ ids: productIds.slice(i, i + PER_CALL).join(",") }, CALL);
      recorded += await recordObservations(page.items.map(toProductView), threshold, { now: now() });
    }
    for (const [key, group] of groups) {
      const seen: Observed[] = [];
      for (let pageIndex = 0; pageIndex < MAX_GROUP_PAGES; pageIndex++) {
        await pace();
        const page = await client.listProducts(
          {
            query: group.brand ?? undefined,
            countryCode: group.countryCode ?? undefined,
            category: TYPE_CATEGORY[group.productType],
            offset: pageIndex * PER_CALL,
            limit: PER_CALL,
          },
          CALL,
        );
        seen.push(...page.items.map(toProductView).filter((p) => matchesGroup(group, p)));
        if (!page.hasMore) break;
      }
      recorded += await recordObservations(seen, threshold, { now: now() });
      // From the first read on, a product of this group seen for the first time is new.
      if (!group.baselined) await db().catalogWatch.updateMany({ where: { key, baselineAt: null }, data: { baselineAt: now() } });
    }
  } catch (error) {
    logger.warn("catalog watch: pass stopped; the next pass reads again", {
      calls,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  const { changes } = await notifyChanges(now());
  return { calls, recorded, notified: changes };
}
