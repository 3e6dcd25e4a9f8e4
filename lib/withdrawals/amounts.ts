import { AppError } from "@/lib/errors";
import { currencyExponent, toDecimalString } from "@/lib/money";

/**
 * "250.50" in a currency → minor units, exactly (no float). More decimals than the
 * currency has (250.5 JPY) is a field error, not a crash.
 */
export function amountToMinor(amount: string, currency: string): bigint {
  const exponent = currencyExponent(currency);
  const [whole = "0", fraction = ""] = amount.split(".");
  if (fraction.length > exponent) {
    throw new AppError("invalid_request", "Some fields are not valid.", { fieldErrors: { amount: [exponent === 0 ? `${currency} has no decimals.` : `${currency} allows at most ${exponent} decimals.`] } });
  }
  return BigInt(whole + fraction.padEnd(exponent, "0"));
}

export function minorToAmount(minor: bigint, currency: string): string {
  return toDecimalString(minor, currencyExponent(currency));
}
