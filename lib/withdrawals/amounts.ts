import { AppError } from "@/lib/errors";
import { currencyExponent, parseMinor } from "@/lib/money";

/**
 * "250.50" typed by a person → minor units, exactly. More decimals than the currency has
 * (250.5 JPY) is a field error, not a crash.
 */
export function amountToMinor(amount: string, currency: string): bigint {
  const exponent = currencyExponent(currency);
  if ((amount.split(".")[1] ?? "").length > exponent) {
    throw new AppError("invalid_request", "Some fields are not valid.", {
      fieldErrors: {
        amount: [exponent === 0 ? `${currency} has no decimals.` : `${currency} allows at most ${exponent} decimals.`],
      },
    });
  }
  return parseMinor(amount, currency);
}
