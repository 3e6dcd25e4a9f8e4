import type { ProductView } from "./product-view";

/**
 * A value-range product's grid (minimumValue, maximumValue, valueStep) is in the card's face
 * currency, not the sell currency: a Colombian top-up is bought at COP 5,000 and priced in USD
 * on the quote. The contract has no field for the face currency; the product's description
 * states it ("Face values are in COP.", "Values are in COP; …"), so it is read from there.
 * Unknown when the description does not say: the grid is then shown without a currency, never
 * in the sell currency.
 */
export function faceCurrencyOf(product: Pick<ProductView, "description">): string | null {
  const match = /\b[Vv]alues are (?:in|denominated in) ([A-Z]{3})\b/.exec(product.description);
  return match?.[1] ?? null;
}

/** 5000 → "5,000", 12.5 → "12.50": decimals only when the amount has them. */
export function formatFaceNumber(amount: number): string {
  return (Number.isInteger(amount) ? WHOLE : DECIMAL).format(amount);
}

const WHOLE = new Intl.NumberFormat("en", { minimumFractionDigits: 0, maximumFractionDigits: 6 });
const DECIMAL = new Intl.NumberFormat("en", { minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** "COP 5,000" — a face value with its currency code in front (or the bare number when unknown). */
export function formatFaceValue(amount: number, currency: string | null): string {
  const number = formatFaceNumber(amount);
  return currency ? `${currency} ${number}` : number;
}

/** "COP 5,000 – 100,000 in steps of 1,000", or null for a product bought by variant. */
export function describeValueGrid(
  product: Pick<ProductView, "description" | "minimumValue" | "maximumValue" | "valueStep">,
): string | null {
  if (product.minimumValue === null || product.maximumValue === null) return null;
  const currency = faceCurrencyOf(product);
  const range = `${formatFaceValue(product.minimumValue, currency)} – ${formatFaceNumber(product.maximumValue)}`;
  return product.valueStep ? `${range} in steps of ${formatFaceNumber(product.valueStep)}` : range;
}
