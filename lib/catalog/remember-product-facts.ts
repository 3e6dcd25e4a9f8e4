import "server-only";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { seenRecently } from "./seen-recently";

/** What the spend report groups an order's product by; the catalog's own words. */
export type ProductFacts = { id: string; name: string; type: string; countryCode: string; category: string };

/**
 * Catalog answers tell what each product is (type, country, category); an order's lines name
 * only its id and name. Each product seen is kept (lib/reports reads it), at most once an hour
 * per process and product, so a page view of known products writes nothing. A product that
 * leaves the catalog keeps its row: its orders are still reported.
 * Never fails its caller: the report's groups are an aid, not part of the catalog page.
 */
const seen = seenRecently("product facts");

export async function rememberProductFacts(products: ProductFacts[]): Promise<void> {
  const now = Date.now();
  const byId = new Map(products.map((p) => [p.id, p]));
  const fresh = seen.fresh([...byId.keys()], now).map((id) => byId.get(id)!);
  if (fresh.length === 0) return;
  try {
    await db().$executeRaw`
      INSERT INTO "CatalogProduct" ("id", "name", "type", "countryCode", "category", "seenAt")
      SELECT f.*, ${new Date(now)}::timestamp(3)
      FROM unnest(${fresh.map((p) => p.id)}::text[], ${fresh.map((p) => p.name)}::text[], ${fresh.map((p) => p.type)}::text[],
                  ${fresh.map((p) => p.countryCode)}::text[], ${fresh.map((p) => p.category)}::text[]) f
      ON CONFLICT ("id") DO UPDATE SET "name" = EXCLUDED."name", "type" = EXCLUDED."type",
        "countryCode" = EXCLUDED."countryCode", "category" = EXCLUDED."category", "seenAt" = EXCLUDED."seenAt"`;
    seen.mark(
      fresh.map((p) => p.id),
      now,
    );
  } catch (error) {
    logger.warn("catalog facts not recorded; the next catalog read records them", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
