import { formatMoney, parseMinor } from "@/lib/money";

/** "2026-11-22T08:30:00.000Z" → "2026-11-22 08:30 UTC": staff in several time zones read one clock. */
export function utcMinute(iso: string): string {
  return `${iso.replace("T", " ").slice(0, 16)} UTC`;
}

/** A decimal amount string ("250.50") in its currency, formatted exactly (no float). */
export function money(amount: string, currency: string): string {
  return formatMoney(parseMinor(amount, currency), currency);
}
