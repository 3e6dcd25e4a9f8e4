/**
 * Whether a value lies on a product's grid (minimum + k × step, up to the maximum), in
 * exact decimal arithmetic: every number is scaled to integers of the finest precision in
 * play, so 0.1 + 0.2 questions never arise.
 */
export type ValueGrid = { minimumValue: number; maximumValue: number; valueStep: number };

export function isOnGrid(value: string, grid: ValueGrid): boolean {
  const parts = [value, decimalString(grid.minimumValue), decimalString(grid.maximumValue), decimalString(grid.valueStep)];
  const scale = Math.max(...parts.map((p) => p.split(".")[1]?.length ?? 0));
  const [v, min, max, step] = parts.map((p) => scaled(p, scale)) as [bigint, bigint, bigint, bigint];
  if (v < min || v > max) return false;
  return step <= 0n ? v === min : (v - min) % step === 0n;
}

/**
 * "between COP 5000 and COP 100000, in steps of 1000" — for the row's message. The grid is in
 * the card's face currency (lib/catalog/face-value.ts), named when known.
 */
export function describeGrid(grid: ValueGrid, faceCurrency: string | null = null): string {
  const face = faceCurrency ? `${faceCurrency} ` : "";
  return `between ${face}${decimalString(grid.minimumValue)} and ${face}${decimalString(grid.maximumValue)}, in steps of ${decimalString(grid.valueStep)}`;
}

/** A JSON number as the decimal string it was written as (no exponent form). */
export function decimalString(n: number): string {
  const text = String(n);
  if (!/e/i.test(text)) return text;
  return n.toFixed(12).replace(/\.?0+$/, "");
}

function scaled(decimal: string, scale: number): bigint {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = decimal.replace(/^[-+]/, "").split(".");
  const digits = BigInt(`${whole || "0"}${fraction.padEnd(scale, "0")}`);
  return negative ? -digits : digits;
}
