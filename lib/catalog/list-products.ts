import "server-only";
import { z } from "zod";
import { singleLineText } from "@/lib/validation";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentBy, upstream } from "@/lib/upstream/service";
import { cardImage, toProductPageView, type ProductPageView } from "./product-view";
import { rememberProductImages } from "./remember-product-images";
import { rememberProductFacts } from "./remember-product-facts";

export const PAGE_SIZES = [24, 50, 100] as const;

/** The catalog page's URL state. Unknown or bad values fall back to defaults, never an error page. */
export const catalogQuerySchema = z.object({
  q: singleLineText().trim().max(100).optional().catch(undefined),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional()
    .catch(undefined),
  category: singleLineText().trim().min(1).max(60).optional().catch(undefined),
  size: z.coerce
    .number()
    .pipe(z.union(PAGE_SIZES.map((n) => z.literal(n)) as [z.ZodLiteral<24>, z.ZodLiteral<50>, z.ZodLiteral<100>]))
    .catch(24),
  page: z.coerce.number().int().min(1).max(1000).catch(1),
});
export type CatalogQuery = z.infer<typeof catalogQuerySchema>;

/** The same query for the JSON API, where bad values are a 400 rather than a fallback. */
export const catalogApiQuerySchema = z
  .object({
    q: singleLineText().trim().max(100, "At most 100 characters.").optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, "A two-letter country code.")
      .optional(),
    category: singleLineText().trim().min(1).max(60).optional(),
    size: z.enum(["24", "50", "100"], { error: "24, 50 or 100." }).default("24").transform(Number),
    page: z.coerce.number().int("A whole number.").min(1).max(1000).default(1),
  })
  .strict();

/**
 * One page of the catalog, featured first in the catalog's order (the upstream's order). Cached
 * briefly. Its cards' pictures are recorded for the worker to fetch and its products' facts for the
 * spend report, without waiting.
 */
export async function listProducts(actor: Actor, query: CatalogQuery): Promise<ProductPageView> {
  assertCan(actor, "catalog.read");
  const page = await upstream().listProducts(
    {
      query: query.q || undefined,
      countryCode: query.country,
      category: query.category,
      offset: (query.page - 1) * query.size,
      limit: query.size,
    },
    { by: spentBy(actor) },
  );
  const view = toProductPageView(page);
  void rememberProductImages(view.items.flatMap((product) => cardImage(product)?.publicReference ?? []));
  void rememberProductFacts(view.items);
  return view;
}
