/**
 * Money is an integer count of minor units (cents for USD) plus an ISO 4217 currency.
 * Upstream amounts arrive as JSON numbers and are converted once, at the edge, with a
 * check that they have no more decimals than the currency allows; all arithmetic is on
 * bigint; formatting uses Intl.NumberFormat.
 */
export type Money = { minor: bigint; currency: string };

const exponentCache = new Map<string, number>();

export function currencyExponent(currency: string): number {
  let exponent = exponentCache.get(currency);
  if (exponent === undefined) {
    try {
      exponent = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      exponent = 2;
    }
    exponentCache.set(currency, exponent);
  }
  return exponent;
}

/** 12.34 USD → 1234n. Throws on NaN, infinities and sub-minor precision (12.345 USD). */
export function toMinor(amount: number, currency: string): bigint {
  if (!Number.isFinite(amount)) throw new RangeError(`Not a finite amount: ${amount}`);
  const scaled = amount * 10 ** currencyExponent(currency);
  const rounded = Math.round(scaled);
  if (Math.abs(scaled - rounded) > 1e-6 * Math.max(1, Math.abs(scaled))) {
    throw new RangeError(`${amount} has more decimals than ${currency} allows`);
  }
  return BigInt(rounded);
}

/** 1234n USD → 12.34, for sending to the upstream (exact for any amount below 2^53 minor units). */
export function fromMinor(minor: bigint, currency: string): number {
  const exponent = currencyExponent(currency);
  return Number(toDecimalString(minor, exponent));
}

/**
 * "250.50" USD → 25050n, exactly (no float): for amounts people type and decimal strings
 * this app wrote. Throws RangeError on anything but digits with an optional fraction (and
 * sign), or on more decimals than the currency allows (12.345 USD).
 */
export function parseMinor(decimal: string, currency: string): bigint {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) throw new RangeError(`Not a decimal amount: ${decimal}`);
  const exponent = currencyExponent(currency);
  const fraction = match[3] ?? "";
  if (fraction.length > exponent) throw new RangeError(`${decimal} has more decimals than ${currency} allows`);
  const minor = BigInt(match[2]! + fraction.padEnd(exponent, "0"));
  return match[1] ? -minor : minor;
}

/** 25050n USD → "250.50": the exact decimal string, for the upstream, the audit log and JSON. */
export function minorToDecimal(minor: bigint, currency: string): string {
  return toDecimalString(minor, currencyExponent(currency));
}

export function toDecimalString(minor: bigint, exponent: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, "0");
  const whole = digits.slice(0, digits.length - exponent) || "0";
  const fraction = exponent ? `.${digits.slice(digits.length - exponent)}` : "";
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

export function formatMoney(minor: bigint | number | string, currency: string, locale = "en-US"): string {
  const value = typeof minor === "bigint" ? minor : BigInt(minor);
  const exponent = currencyExponent(currency);
  // Intl formats decimal strings exactly (no float rounding) since ES2023.
  return moneyFormat(locale, currency, exponent).format(toDecimalString(value, exponent) as unknown as number);
}

/**
 * Building an Intl.NumberFormat costs about a hundred times what formatting with one does
 * (a page of money figures spent milliseconds building them): one per locale and currency,
 * kept. Bounded, since a locale can come from a request.
 */
const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(locale: string, currency: string, exponent: number): Intl.NumberFormat {
  const key = `${locale} ${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    if (moneyFormats.size >= 500) moneyFormats.clear();
    moneyFormats.set(key, format);
  }
  return format;
}
