/** "2026-11-22T05:12:03.123Z" → "2026-11-22 05:12:03 UTC" (or to the minute). */
export function utcTime(iso: string, precision: "minute" | "second" = "minute"): string {
  return `${iso.replace("T", " ").slice(0, precision === "second" ? 19 : 16)} UTC`;
}

/** A long hash or address kept recognisable: "0x1234ab…89cdef". */
export function shortHash(value: string, keep = 8): string {
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-6)}`;
}
