import { PRODUCT_TYPE_LABELS } from "@/lib/catalog/describe-price";
import { regionName } from "@/lib/catalog/region-name";
import { isOneOf } from "@/lib/is-one-of";
import type { ReportGroup } from "./report-period";

/** What the report's "group by" control and headers call each grouping. */
export const GROUP_NAMES: Record<ReportGroup, string> = {
  product: "Product",
  category: "Category (brand)",
  country: "Country",
  type: "Product type",
  currency: "Currency",
  buyer: "Buyer",
  origin: "Origin",
};

/** A group with no key: what the records lack, said plainly. */
const UNKNOWN: Record<ReportGroup, string> = {
  product: "No product recorded",
  category: "Product not seen in the catalog",
  country: "Product not seen in the catalog",
  type: "Product not seen in the catalog",
  currency: "No currency",
  buyer: "No person (storefront, API or job)",
  origin: "Unknown",
};

const PRODUCT_TYPES = Object.keys(PRODUCT_TYPE_LABELS) as (keyof typeof PRODUCT_TYPE_LABELS)[];

const ORIGINS: Record<string, string> = {
  "back-office": "Back-office",
  bulk: "Bulk file",
  storefront: "Storefront or API",
};

/** A group's name as a person reads it, from its key and the label SQL found for it. */
export function groupLabel(by: ReportGroup, key: string, label: string): string {
  if (!key) return UNKNOWN[by];
  if (by === "country") return `${regionName(key)} (${key})`;
  if (by === "type") return isOneOf(PRODUCT_TYPES, key) ? PRODUCT_TYPE_LABELS[key] : key;
  if (by === "origin") return ORIGINS[key] ?? key;
  return label || key;
}
