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

/** 12.34 USD → 1234n. Throws on NaN, infinities, amounts beyond exact integers and sub-minor precision (12.345 USD). */
export function toMinor(amount: number, currency: string): bigint {
  if (!Number.isFinite(amount)) throw new RangeError(`Not a finite amount: ${amount}`);
  const scaled = amount * 10 ** currencyExponent(currency);
  const rounded = Math.round(scaled);
  // 1e308 × 100 is Infinity, which BigInt() refuses with a bare RangeError deep in a request.
  if (!Number.isSafeInteger(rounded)) throw new RangeError(`${amount} is too large an amount`);
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

/**
 * The one rule for a money amount that comes from a client (a JSON number or a typed
 * decimal string), applied before any arithmetic (lib/validation.ts's `moneyAmount` and
 * `moneyNumber` wrap it as zod schemas): a plain decimal (no sign, exponent or grouping),
 * finite, at most `MAX_AMOUNT_DIGITS` digits before the point (below a trillion, so an
 * amount stays exact as minor units in a JS number at 3 decimals), at most `maxDecimals`
 * after it, and above zero unless `allowZero`. Where the currency is known, the amount also
 * has at most the currency's decimals (`currencyDecimalsProblem`).
 */
export type AmountRule = { allowZero?: boolean; maxDecimals?: number };
export const MAX_AMOUNT_DIGITS = 12;
/** The most decimals of a currency one pays in (BHD, KWD…); units of account with 4 (CLF) are not. */
export const MAX_CURRENCY_DECIMALS = 3;
/** Face values (a card's value, not a total in the order's currency) may have finer steps. */
export const MAX_FACE_VALUE_DECIMALS = 6;

const AMOUNT = /^(-)?(\d+)(?:\.(\d+))?$/;

/** The message for an amount that breaks the rule, or null when it is fine. */
export function amountProblem(decimal: string, { allowZero = false, maxDecimals = 2 }: AmountRule = {}): string | null {
  const match = AMOUNT.exec(decimal);
  if (!match) return "Enter the amount as a plain number, such as 25 or 12.50.";
  const [, negative, whole, fraction = ""] = match;
  const isZero = /^0*$/.test(whole!) && /^0*$/.test(fraction);
  if (negative && !isZero) return allowZero ? "Enter zero or more." : "Enter an amount above zero.";
  if (whole!.replace(/^0+(?=\d)/, "").length > MAX_AMOUNT_DIGITS) return "Enter an amount below 1,000,000,000,000.";
  if (fraction.length > maxDecimals)
    return maxDecimals === 0 ? "Enter a whole amount (no decimals)." : `Use at most ${maxDecimals} decimals.`;
  if (isZero && !allowZero) return "Enter an amount above zero.";
  return null;
}

/** The same rule for a JSON number: NaN, infinities and exponent forms never reach arithmetic. */
export function numberAmountProblem(amount: number, rule: AmountRule = {}): string | null {
  if (!Number.isFinite(amount)) return "Enter a finite amount.";
  if (Math.abs(amount) >= 10 ** MAX_AMOUNT_DIGITS) return "Enter an amount below 1,000,000,000,000.";
  // String() is the shortest text that reads back as this number; below 1e-6 it is "1e-7", too many decimals anyway.
  const text = String(amount);
  if (/e/i.test(text)) return `Use at most ${rule.maxDecimals ?? 2} decimals.`;
  return amountProblem(text, rule);
}

/** "12.345" USD → "USD allows at most 2 decimals.", for an amount that passed `amountProblem`. */
export function currencyDecimalsProblem(amount: string | number, currency: string): string | null {
  const exponent = currencyExponent(currency);
  const fraction = String(amount).split(".")[1] ?? "";
  if (fraction.length <= exponent) return null;
  return exponent === 0 ? `${currency} has no decimals.` : `${currency} allows at most ${exponent} decimals.`;
}
