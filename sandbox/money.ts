// Money is integer minor units (cents) everywhere inside the sandbox; JSON numbers exist only at the edge.
// Every sandbox currency has two decimals, so one conversion rule fits all.

export const MAX_AMOUNT_CENTS = 100_000_000_000; // 1 000 000 000.00: far above any sandbox balance

export function toAmount(cents: number): number {
  return cents / 100;
}

// Returns cents, or an error message for the `errors` map.
export function parseAmount(value: unknown): number | string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "Must be a number.";
  const text = String(Math.abs(value));
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return "Must have at most two decimal places.";
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents) || cents > MAX_AMOUNT_CENTS) return "Is too large.";
  return value < 0 ? -cents : cents;
}

export function isCurrencyCode(value: unknown): value is string {
  return typeof value === "string" && /^[A-Z]{3}$/.test(value);
}

export function formatAmount(cents: number, currency: string): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")} ${currency}`;
}

// Rounds a / b half-up for non-negative integers, without floats.
export function roundDiv(a: bigint, b: bigint): number {
  return Number((a * 2n + b) / (b * 2n));
}
