import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { toMinor } from "@/lib/money";
import type { ProductView } from "@/lib/catalog/product-view";
import { measureMove, type PriceMap } from "./price-move";
import { matchesGroup, type GroupTarget } from "./watch-target";

/** What a catalog answer says of a product that the watch keeps. */
export type Observed = Pick<
  ProductView,
  "id" | "type" | "name" | "countryCode" | "category" | "currency" | "isAvailable" | "variants"
>;

/**
 * Records what a catalog answer showed, whoever caused it (the watch job's pass or a person's
 * catalog read, at no extra upstream call): a product seen for the first time, a price that
 * differs from the last one seen (a history point per variant) and, as a change its watchers
 * hear of, a move past `thresholdPercent` from the reference price, a loss or return of
 * availability, or a product of a watched brand or country first seen after that watch began.
 * One round trip when nothing changed; each product's change is its own transaction, taken only
 * if no other process recorded that product meanwhile (so a change is recorded once).
 *
 * A cached answer may be up to `maxAgeMs` old: a product recorded within that time is left
 * alone, since the answer may predate what was recorded (a cached price is not a change back).
 * A fresh answer (`maxAgeMs` 0) marks every product it names as recorded now.
 */
export async function recordObservations(
  products: Observed[],
  thresholdPercent: number,
  { now = new Date(), maxAgeMs = 0 }: { now?: Date; maxAgeMs?: number } = {},
): Promise<number> {
  if (products.length === 0) return 0;
  const known = new Map(
    (await db().catalogProductState.findMany({ where: { productId: { in: products.map((p) => p.id) } } })).map((s) => [
      s.productId,
      s,
    ]),
  );
  let recorded = 0;
  const firsts: Observed[] = [];
  const unchanged: string[] = [];
  for (const product of products) {
    const state = known.get(product.id);
    try {
      if (!state) {
        firsts.push(product);
        continue;
      }
      if (maxAgeMs > 0 && state.observedAt.getTime() > now.getTime() - maxAgeMs) continue;
      const prices = pricesOf(product);
      const before = state.prices as PriceMap;
      const availabilityMoved = state.isAvailable !== product.isAvailable;
      const pricesMoved = Object.entries(prices).some(([variant, minor]) => before[variant] !== minor);
      if (!availabilityMoved && !pricesMoved) {
        unchanged.push(product.id);
        continue;
      }
      recorded += await recordMove(product, prices, state, thresholdPercent, now);
    } catch (error) {
      logger.warn("catalog watch: observation not recorded", {
        productId: product.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  if (firsts.length) recorded += await recordFirstSights(firsts, now);
  if (maxAgeMs === 0 && unchanged.length)
    await db().catalogProductState.updateMany({ where: { productId: { in: unchanged } }, data: { observedAt: now } });
  return recorded;
}

function pricesOf(product: Observed): PriceMap {
  return Object.fromEntries(product.variants.map((v) => [v.id, toMinor(v.price, product.currency).toString()]));
}

/** The brand and country watches whose first read is done: a product of theirs seen later is new. */
async function baselinedGroups(): Promise<GroupTarget[]> {
  const rows = await db().catalogWatch.findMany({
    where: { productId: null, baselineAt: { not: null } },
    select: { productType: true, brand: true, countryCode: true },
    distinct: ["key"],
  });
  return rows.map((row) => ({
    productType: row.productType as GroupTarget["productType"],
    brand: row.brand,
    countryCode: row.countryCode,
  }));
}

/**
 * Products seen for the first time, in one transaction: their state and first prices, and "new"
 * for those under a watched brand or country. Rows another process made meanwhile are skipped:
 * only those first seen by this statement (`firstSeenAt` = now) get points and changes.
 */
async function recordFirstSights(products: Observed[], now: Date): Promise<number> {
  const groups = await baselinedGroups();
  return db().$transaction(async (tx) => {
    await tx.catalogProductState.createMany({
      data: products.map((p) => ({
        ...facts(p),
        prices: pricesOf(p),
        reference: pricesOf(p),
        firstSeenAt: now,
        observedAt: now,
      })),
      skipDuplicates: true,
    });
    const made = await tx.catalogProductState.findMany({
      where: { productId: { in: products.map((p) => p.id) }, firstSeenAt: now },
      select: { productId: true },
    });
    const ours = new Set(made.map((row) => row.productId));
    const firsts = products.filter((p) => ours.has(p.id));
    await tx.catalogPricePoint.createMany({ data: firsts.flatMap((p) => points(p, now)) });
    const fresh = firsts.filter((p) => groups.some((group) => matchesGroup(group, p)));
    await tx.catalogChange.createMany({
      data: fresh.map((p) => ({ ...changeFacts(p), change: "new", currency: p.currency, detectedAt: now })),
    });
    return fresh.length;
  });
}

async function recordMove(
  product: Observed,
  prices: PriceMap,
  state: { isAvailable: boolean; reference: Prisma.JsonValue; prices: Prisma.JsonValue; observedAt: Date },
  thresholdPercent: number,
  now: Date,
): Promise<number> {
  const before = state.prices as PriceMap;
  const move = measureMove(state.reference as PriceMap, prices);
  const notable = move && Math.abs(move.percent) > thresholdPercent ? move : null;
  // Small moves add up: the reference stays until a move past the threshold is recorded.
  const reference = notable ? { ...(state.reference as PriceMap), ...prices } : { ...prices, ...(state.reference as PriceMap) };
  return db().$transaction(async (tx) => {
    const { count } = await tx.catalogProductState.updateMany({
      where: { productId: product.id, observedAt: state.observedAt },
      data: {
        ...facts(product),
        prices,
        reference,
        observedAt: now,
        ...(state.isAvailable !== product.isAvailable ? { availabilityChangedAt: now } : {}),
      },
    });
    if (count === 0) return 0; // another process recorded this product meanwhile
    const moved = product.variants.filter((v) => before[v.id] !== prices[v.id]);
    if (moved.length) await tx.catalogPricePoint.createMany({ data: points({ ...product, variants: moved }, now) });
    let changes = 0;
    if (state.isAvailable !== product.isAvailable) {
      await tx.catalogChange.create({
        data: { ...changeFacts(product), change: product.isAvailable ? "available" : "unavailable", detectedAt: now },
      });
      changes += 1;
    }
    if (notable) {
      const variant = product.variants.find((v) => v.id === notable.variantId);
      await tx.catalogChange.create({
        data: {
          ...changeFacts(product),
          change: notable.percent > 0 ? "price_rise" : "price_drop",
          variantLabel: variant?.displayValue ?? null,
          oldPriceMinor: BigInt(notable.from),
          newPriceMinor: BigInt(notable.to),
          currency: product.currency,
          percent: notable.percent.toFixed(2),
          detectedAt: now,
        },
      });
      changes += 1;
    }
    return changes;
  });
}

function facts(product: Observed) {
  return {
    productId: product.id,
    name: product.name,
    productType: product.type,
    countryCode: product.countryCode,
    category: product.category,
    currency: product.currency,
    isAvailable: product.isAvailable,
  };
}

function changeFacts(product: Observed) {
  return { productId: product.id, productName: product.name, productType: product.type, countryCode: product.countryCode };
}

function points(product: Observed, now: Date) {
  return product.variants.map((v) => ({
    productId: product.id,
    variantId: v.id,
    faceValue: v.displayValue,
    priceMinor: toMinor(v.price, product.currency),
    currency: product.currency,
    observedAt: now,
  }));
}
