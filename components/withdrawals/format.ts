import { formatMoney, parseMinor } from "@/lib/money";

/** A decimal amount string ("250.50") in its currency, formatted exactly (no float). */
export function money(amount: string, currency: string): string {
  return formatMoney(parseMinor(amount, currency), currency);
}
