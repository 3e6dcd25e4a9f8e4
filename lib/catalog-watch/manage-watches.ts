import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import type { CatalogWatch } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { getProduct } from "@/lib/catalog/get-product";
import { groupLabel, watchKey, type WatchInput } from "./watch-target";

export type WatchView = {
  id: string;
  label: string;
  workspace: boolean;
  productId: string | null;
  productType: string | null;
  brand: string | null;
  countryCode: string | null;
  createdAt: string;
};

const MAX_WATCHES = 200;

/**
 * Starts watching (a second watch of the same target is the first one, so a double click adds
 * nothing). A product watch reads the product, for its name and to refuse an unknown id; a
 * watch for the whole workspace needs the admin's permission.
 */
export async function addWatch(actor: Actor, input: WatchInput): Promise<{ watch: WatchView; created: boolean }> {
  assertCan(actor, "catalog.watch");
  if (input.workspace) assertCan(actor, "catalog.watch-workspace");
  const key = watchKey(input);
  const existing = await db().catalogWatch.findUnique({ where: { staffId_key: { staffId: actor.staffId, key } } });
  if (existing) return { watch: toWatchView(existing), created: false };
  if ((await db().catalogWatch.count({ where: { staffId: actor.staffId } })) >= MAX_WATCHES)
    throw new AppError("conflict", `You watch ${MAX_WATCHES} things already; stop watching one first.`);
  const target =
    "productId" in input
      ? { productId: input.productId, label: (await getProduct(actor, input.productId)).name }
      : {
          productType: input.productType,
          brand: input.brand ?? null,
          countryCode: input.countryCode ?? null,
          label: groupLabel({
            productType: input.productType,
            brand: input.brand ?? null,
            countryCode: input.countryCode ?? null,
          }),
        };
  const row = await db()
    .catalogWatch.create({ data: { staffId: actor.staffId, key, workspace: input.workspace, ...target } })
    .catch(async (error: unknown) => {
      // Two clicks at once: the other one made it.
      const made = await db().catalogWatch.findUnique({ where: { staffId_key: { staffId: actor.staffId, key } } });
      if (made) return made;
      throw error;
    });
  return { watch: toWatchView(row), created: true };
}

/** Stops watching: only one's own watches (someone else's id is not found, as if it did not exist). */
export async function removeWatch(actor: Actor, id: string): Promise<void> {
  assertCan(actor, "catalog.watch");
  const { count } = await db().catalogWatch.deleteMany({ where: { id, staffId: actor.staffId } });
  if (count === 0) throw new AppError("not_found", "You do not watch this.");
}

/** What one watches, newest first. */
export async function listWatches(actor: Actor): Promise<WatchView[]> {
  assertCan(actor, "catalog.watch");
  const rows = await db().catalogWatch.findMany({ where: { staffId: actor.staffId }, orderBy: { createdAt: "desc" } });
  return rows.map(toWatchView);
}

/** Of these products, the ones this person watches, by product id → watch id (the catalog's buttons). */
export async function watchedAmong(actor: Actor, productIds: string[]): Promise<Map<string, string>> {
  if (productIds.length === 0) return new Map();
  const rows = await db().catalogWatch.findMany({
    where: { staffId: actor.staffId, productId: { in: productIds } },
    select: { id: true, productId: true },
  });
  return new Map(rows.map((row) => [row.productId ?? "", row.id]));
}

function toWatchView(row: CatalogWatch): WatchView {
  return {
    id: row.id,
    label: row.label,
    workspace: row.workspace,
    productId: row.productId,
    productType: row.productType,
    brand: row.brand,
    countryCode: row.countryCode,
    createdAt: row.createdAt.toISOString(),
  };
}
