import type { ProductView } from "@/lib/catalog/product-view";
import { isOnGrid } from "@/lib/bulk-orders/value-grid";
import { faceCurrencyOf, formatFaceValue } from "@/lib/catalog/face-value";

export const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The values a value-range product can be bought at. The grid is in the card's face currency
 * (lib/catalog/face-value.ts), so it is checked in exact decimals, not in the sell currency's
 * minor units.
 */
export function checkValue(product: ProductView, text: string): string | null {
  if (product.minimumValue === null || product.maximumValue === null) return null;
  const value = text.trim();
  if (!value || !/^\d+(\.\d+)?$/.test(value)) return "Enter a value.";
  const grid = { minimumValue: product.minimumValue, maximumValue: product.maximumValue, valueStep: product.valueStep ?? 0 };
  if (isOnGrid(value, grid)) return null;
  const face = (amount: number) => formatFaceValue(amount, faceCurrencyOf(product));
  const n = Number(value);
  if (n < product.minimumValue || n > product.maximumValue)
    return `Choose between ${face(product.minimumValue)} and ${face(product.maximumValue)}.`;
  return `Choose a multiple of ${face(product.valueStep ?? 0)} from ${face(product.minimumValue)}.`;
}

export function checkQuantity(text: string): string | null {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1) return "Enter a whole number, at least 1.";
  if (n > 100) return "At most 100 in one order.";
  return null;
}

export function checkPhone(product: ProductView, text: string): string | null {
  if (product.type !== "phone-top-up") return null;
  return E164.test(text.trim()) ? null : "Enter the number in international format, e.g. +447700900123.";
}

/** The grid of values as options when it is short enough for a list. */
export function gridValues(product: ProductView, limit = 60): number[] | null {
  if (product.minimumValue === null || product.maximumValue === null || !product.valueStep) return null;
  const count = Math.floor((product.maximumValue - product.minimumValue) / product.valueStep + 1e-9) + 1;
  if (count > limit) return null;
  return Array.from({ length: count }, (_, i) => Number((product.minimumValue! + i * product.valueStep!).toFixed(6)));
}
