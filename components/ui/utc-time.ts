/**
 * "2026-11-22T05:12:03.123Z" → "2026-11-22 05:12 UTC" (or to the second): staff in several
 * time zones read one clock, and server and browser render the same text.
 */
export function utcTime(iso: string, precision: "minute" | "second" = "minute"): string {
  return `${iso.replace("T", " ").slice(0, precision === "second" ? 19 : 16)} UTC`;
}
