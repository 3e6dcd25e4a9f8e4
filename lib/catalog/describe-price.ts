import type { Product } from "@/lib/service";
import { formatMoney, toMinor } from "@/lib/money";

/** "€4.50 – €95.00" for variants, "$5.00 – $100.00 in steps of $5.00" for a value range. */
export function describePrice(product: Product): string {
  const fmt = (amount: number) => formatMoney(toMinor(amount, product.currency), product.currency);
  if (product.variants.length > 0) {
    const prices = product.variants.map((v) => v.price);
    const min = Math.min(...prices);
    const max = Math.max(...prices);
    return min === max ? fmt(min) : `${fmt(min)} – ${fmt(max)}`;
  }
  if (product.minimumValue !== null && product.maximumValue !== null) {
    const step = product.valueStep ? ` in steps of ${fmt(product.valueStep)}` : "";
    return `${fmt(product.minimumValue)} – ${fmt(product.maximumValue)}${step}`;
  }
  return "Price on quote";
}

export const PRODUCT_TYPE_LABELS: Record<Product["type"], string> = { "gift-card": "Gift card", esim: "eSIM", "phone-top-up": "Phone top-up" };

export function imageSrc(publicReference: string): string {
  return `/api/catalog/images/${encodeURIComponent(publicReference)}`;
}
