/**
 * One CSV row (RFC 4180, CRLF). Cells that a spreadsheet would run as a formula
 * (=, +, -, @, tab, CR) are prefixed with a quote so an export cannot carry an injection.
 */
export function toCsvRow(cells: readonly (string | number | null | undefined)[]): string {
  return cells.map(csvCell).join(",") + "\r\n";
}

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  // A plain negative decimal ("-2.72", an exported amount) is a number to a spreadsheet, not a formula.
  if (/^[=+\-@\t\r]/.test(text) && typeof value !== "number" && !/^-\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
