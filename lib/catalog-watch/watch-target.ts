import { z } from "zod";
import { singleLineText } from "@/lib/validation";
import type { ProductType } from "@/lib/catalog/product-view";

/**
 * What a watch names: one product, or a product type under a brand and/or a country ("Amazon
 * gift cards, US"). The contract has no brand field: a brand is words of the product's name,
 * matched as the catalog's search matches them (case-insensitive). Pure, unit-tested.
 */
export const PRODUCT_TYPES = ["gift-card", "esim", "phone-top-up"] as const satisfies readonly ProductType[];
const TYPE_WORDS: Record<ProductType, string> = { "gift-card": "gift cards", esim: "eSIMs", "phone-top-up": "top-ups" };
/** The catalog's category alias of each type (service-api-v1 §4.1: they always work). */
export const TYPE_CATEGORY: Record<ProductType, string> = { "gift-card": "gift-card", esim: "esim", "phone-top-up": "top-up" };

/** What watchers hear of (CatalogChange.change, and the database's CHECK). */
export const CATALOG_CHANGES = ["price_rise", "price_drop", "unavailable", "available", "new"] as const;
export type CatalogChangeKind = (typeof CATALOG_CHANGES)[number];

const PRODUCT_ID = /^[A-Za-z0-9._~-]{1,200}$/;

export const watchInputSchema = z.union([
  z.object({ productId: z.string().regex(PRODUCT_ID, "Not a product id."), workspace: z.boolean().default(false) }).strict(),
  z
    .object({
      productType: z.enum(PRODUCT_TYPES, { error: "gift-card, esim or phone-top-up." }),
      brand: singleLineText().trim().min(2, "At least 2 characters.").max(60, "At most 60 characters.").optional(),
      countryCode: z
        .string()
        .regex(/^[A-Z]{2}$/, "A two-letter country code.")
        .optional(),
      workspace: z.boolean().default(false),
    })
    .strict()
    .refine((w) => w.brand !== undefined || w.countryCode !== undefined, {
      message: "Name a brand, a country or both.",
      path: ["brand"],
    }),
]);
export type WatchInput = z.output<typeof watchInputSchema>;

export type GroupTarget = { productType: ProductType; brand: string | null; countryCode: string | null };
export type ProductFacts = { id: string; type: string; name: string; countryCode: string };

/** The key one person watches a target under once: "product:<id>" or "group:<type>|<brand>|<country>". */
export function watchKey(input: WatchInput): string {
  if ("productId" in input) return `product:${input.productId}`;
  return `group:${input.productType}|${(input.brand ?? "").toLowerCase()}|${input.countryCode ?? ""}`;
}

/** "Amazon gift cards, US", "top-ups, MX" — what the watch list shows. */
export function groupLabel(target: GroupTarget): string {
  const what = target.brand ? `${target.brand} ${TYPE_WORDS[target.productType]}` : capitalise(TYPE_WORDS[target.productType]);
  return target.countryCode ? `${what}, ${target.countryCode}` : what;
}

/** Whether a product falls under a group watch. */
export function matchesGroup(target: GroupTarget, product: ProductFacts): boolean {
  if (product.type !== target.productType) return false;
  if (target.countryCode && product.countryCode !== target.countryCode) return false;
  return !target.brand || product.name.toLowerCase().includes(target.brand.toLowerCase());
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
