import type { Product } from "@/lib/service";
import { toMinor } from "@/lib/money";

export const E164 = /^\+[1-9]\d{6,14}$/;

/** The values a value-range product can be bought at, checked in minor units (no float drift). */
export function checkValue(product: Product, text: string): string | null {
  if (product.minimumValue === null || product.maximumValue === null) return null;
  const value = Number(text);
  if (!text.trim() || !Number.isFinite(value)) return "Enter a value.";
  let minor: bigint;
  try {
    minor = toMinor(value, product.currency);
  } catch {
    return "Too many decimals.";
  }
  const min = toMinor(product.minimumValue, product.currency);
  const max = toMinor(product.maximumValue, product.currency);
  const step = product.valueStep ? toMinor(product.valueStep, product.currency) : 1n;
  if (minor < min || minor > max) return `Choose between ${product.minimumValue} and ${product.maximumValue}.`;
  if ((minor - min) % step !== 0n) return `Choose a multiple of ${product.valueStep} from ${product.minimumValue}.`;
  return null;
}

export function checkQuantity(text: string): string | null {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1) return "Enter a whole number, at least 1.";
  if (n > 100) return "At most 100 in one order.";
  return null;
}

export function checkPhone(product: Product, text: string): string | null {
  if (product.type !== "phone-top-up") return null;
  return E164.test(text.trim()) ? null : "Enter the number in international format, e.g. +447700900123.";
}

/** The grid of values as options when it is short enough for a list. */
export function gridValues(product: Product, limit = 60): number[] | null {
  if (product.minimumValue === null || product.maximumValue === null || !product.valueStep) return null;
  const count = Math.floor((product.maximumValue - product.minimumValue) / product.valueStep + 1e-9) + 1;
  if (count > limit) return null;
  return Array.from({ length: count }, (_, i) => Number((product.minimumValue! + i * product.valueStep!).toFixed(6)));
}
