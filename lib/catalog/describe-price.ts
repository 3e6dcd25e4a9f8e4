import type { ProductType, ProductView } from "./product-view";
import { formatMoney, toMinor } from "@/lib/money";
import { describeValueGrid } from "./face-value";
import { regionName } from "./region-name";

/**
 * "€4.50 – €95.00" for variants (sell prices); for a value range the grid is face value in
 * the card's own currency ("Face value COP 5,000 – 100,000 in steps of 1,000"): its sell
 * price is known only from a quote.
 */
export function describePrice(product: ProductView): string {
  const fmt = (amount: number) => formatMoney(toMinor(amount, product.currency), product.currency);
  if (product.variants.length > 0) {
    const prices = product.variants.map((v) => v.price);
    const min = Math.min(...prices);
    const max = Math.max(...prices);
    return min === max ? fmt(min) : `${fmt(min)} – ${fmt(max)}`;
  }
  const grid = describeValueGrid(product);
  return grid ? `Face value ${grid}` : "Price on quote";
}

export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = {
  "gift-card": "Gift card",
  esim: "eSIM",
  "phone-top-up": "Phone top-up",
};

/** "Gift card · Germany · Entertainment": a product's kind, country and category, under its name (card and page). */
export function describeProduct(product: Pick<ProductView, "type" | "countryCode" | "category">): string {
  return `${PRODUCT_TYPE_LABELS[product.type]} · ${regionName(product.countryCode)} · ${product.category}`;
}

export function imageSrc(publicReference: string): string {
  return `/api/catalog/images/${encodeURIComponent(publicReference)}`;
}
