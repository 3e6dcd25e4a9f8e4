/**
 * "2026-11-22T05:12:03.123Z" → "2026-11-22 05:12 UTC" (or to the second): staff in several
 * time zones read one clock, and server and browser render the same text. `bare` leaves
 * out " UTC" where the column header already says it; a missing time reads "—".
 */
export function utcTime(at: string | Date | null | undefined, precision: "minute" | "second" = "minute", bare = false): string {
  if (at === null || at === undefined) return "—";
  const iso = typeof at === "string" ? at : at.toISOString();
  const text = iso.replace("T", " ").slice(0, precision === "second" ? 19 : 16);
  return bare ? text : `${text} UTC`;
}
