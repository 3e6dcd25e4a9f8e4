import { parseMinor } from "@/lib/money";

/**
 * The periods a limit counts over: the calendar day and month in UTC, whatever the server's
 * or the buyer's time zone. Pure, so the boundaries have unit-testable answers.
 */
export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export function utcMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/**
 * The workspace threshold ("500.00", one number for every currency) in a currency's minor
 * units. A currency without decimals (JPY) drops the fraction rather than failing the order.
 */
export function thresholdMinor(decimal: string, currency: string): bigint {
  try {
    return parseMinor(decimal, currency);
  } catch {
    return parseMinor(decimal.split(".")[0]!, currency);
  }
}
