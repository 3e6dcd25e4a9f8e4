/**
 * An amount as a person writes it in their locale ("1,200.50" in en, "1.200,50" in de,
 * "1 200,50" in fr) → the plain form the server takes ("1200.50"). Only a number written
 * exactly in that locale's pattern (groups of three, two decimals at most) is rewritten;
 * anything else is sent as typed and the server's message says what it expects, so an
 * ambiguous "250.50" in a German browser is never read as 25050.
 */
export function normalizeAmount(text: string, locale: string): string {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  const group = parts.find((p) => p.type === "group")?.value ?? ",";
  const decimal = parts.find((p) => p.type === "decimal")?.value ?? ".";
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // Spaces of every kind count as the same group separator.
  const g = /^\s$/.test(group) || group === "\u202f" ? "[\\s\\u00a0\\u202f]" : escape(group);
  const d = escape(decimal);
  const trimmed = text.trim();
  const grouped = new RegExp(`^\\d{1,3}(?:${g}\\d{3})+(?:${d}\\d{1,2})?$`);
  const plain = new RegExp(`^\\d+(?:${d}\\d{1,2})?$`);
  if (!grouped.test(trimmed) && !plain.test(trimmed)) return trimmed;
  const [whole, fraction] = trimmed.split(decimal);
  const digits = whole!.replace(/\D/g, "");
  return fraction === undefined ? digits : `${digits}.${fraction}`;
}
