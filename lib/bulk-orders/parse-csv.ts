import { CsvError, parse } from "csv-parse/sync";
import { AppError, type FieldErrors } from "@/lib/errors";

/**
 * The bulk-order CSV: RFC 4180 (comma-separated, fields optionally in double quotes with
 * "" for a quote, CRLF or LF line ends, line breaks allowed inside quotes), a header row
 * naming the columns in any order (case-insensitive), bounded in size. Problems with the
 * file as a whole are one 400; problems with one row stay on that row so the preview can
 * show them beside the others. Row numbers are those a spreadsheet shows: the header is
 * row 1, the first order is row 2.
 */
export const BULK_COLUMNS = ["productId", "variantId", "value", "quantity", "clientReference", "phoneNumber"] as const;
export type BulkColumn = (typeof BULK_COLUMNS)[number];
export type BulkCells = Record<BulkColumn, string>;
export type ParsedRow = { rowNumber: number; cells: BulkCells; errors: FieldErrors };

export const MAX_CSV_BYTES = 256 * 1024;
export const MAX_CSV_ROWS = 500;
const REQUIRED: readonly BulkColumn[] = ["productId", "quantity", "clientReference"];

type RawRecord = { fields: string[]; error?: string };
/** RFC 4180 as above; any of CRLF, LF or CR ends a record, and the lines may mix them. */
const DIALECT = { delimiter: ",", quote: '"', escape: '"', record_delimiter: ["\r\n", "\n", "\r"], relax_column_count: true };

export function parseBulkCsv(text: string): ParsedRow[] {
  if (Buffer.byteLength(text, "utf8") > MAX_CSV_BYTES)
    fileError(`The file is larger than ${MAX_CSV_BYTES / 1024} KiB. Split it into several uploads.`);
  const records = tokenize(text.replace(/^\uFEFF/, ""));
  while (records.length && isBlank(records[records.length - 1]!)) records.pop();
  if (records.length === 0)
    fileError(
      "The file is empty. The first row must name the columns, e.g. productId,variantId,value,quantity,clientReference,phoneNumber.",
    );

  const columns = readHeader(records[0]!);
  const rows: ParsedRow[] = [];
  for (let i = 1; i < records.length; i++) {
    const record = records[i]!;
    if (isBlank(record)) continue;
    const cells = Object.fromEntries(BULK_COLUMNS.map((c) => [c, ""])) as BulkCells;
    const errors: FieldErrors = {};
    if (record.error) errors._row = [record.error];
    else if (record.fields.length !== columns.length)
      errors._row = [
        `Has ${record.fields.length} ${record.fields.length === 1 ? "field" : "fields"}; the header has ${columns.length}.`,
      ];
    columns.forEach((column, index) => (cells[column] = (record.fields[index] ?? "").trim()));
    rows.push({ rowNumber: i + 1, cells, errors });
  }
  if (rows.length === 0) fileError("The file has a header row but no orders under it.");
  if (rows.length > MAX_CSV_ROWS)
    fileError(`The file has ${rows.length} rows; one upload may have at most ${MAX_CSV_ROWS}. Split it into several uploads.`);
  return rows;
}

function readHeader(record: RawRecord): BulkColumn[] {
  if (record.error) fileError(`The header row is not valid CSV: ${record.error}`);
  const names = record.fields.map((f) => f.trim());
  if (names.length === 1 && /;|\t/.test(names[0]!))
    fileError(
      "Columns must be separated by commas; this header uses semicolons or tabs. Export the sheet as “CSV (comma delimited)”.",
    );
  const byLower = new Map(BULK_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const columns: BulkColumn[] = [];
  for (const name of names) {
    const column = byLower.get(name.toLowerCase());
    if (!column) fileError(`Unknown column “${name || "(empty)"}”. The columns are: ${BULK_COLUMNS.join(", ")}.`);
    if (columns.includes(column)) fileError(`The column “${column}” appears twice in the header.`);
    columns.push(column);
  }
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length)
    fileError(
      `The header has no ${missing.join(", ")} column${missing.length > 1 ? "s" : ""}. The columns are: ${BULK_COLUMNS.join(", ")}.`,
    );
  if (!columns.includes("variantId") && !columns.includes("value"))
    fileError("The header needs a variantId column, a value column, or both.");
  return columns;
}

/**
 * Splits the text into records of fields; a malformed record carries its error instead of
 * failing the file. Quotes are read leniently so that a record with a misplaced quote keeps
 * its place and its fields (rather than swallowing the rows after it); its problem is then
 * found by reading that record again strictly.
 */
function tokenize(text: string): RawRecord[] {
  let records: { record: string[]; raw: string }[];
  try {
    // csv-parse's types do not follow `raw: true`, which turns each record into { record, raw }.
    records = parse(text, { ...DIALECT, relax_quotes: true, raw: true }) as unknown as typeof records;
  } catch (error) {
    // `records` counts the records read before the one left open.
    if (error instanceof CsvError && error.code === "CSV_QUOTE_NOT_CLOSED")
      fileError(`Row ${Number(error.records) + 1}: a quoted field is never closed (a " is missing).`);
    throw error;
  }
  return records.map(({ record, raw }) => {
    const error = raw.includes('"') ? quoteProblem(raw) : undefined;
    return error ? { fields: record, error } : { fields: record };
  });
}

/** The first misplaced quote in one record, if any. */
function quoteProblem(raw: string): string | undefined {
  try {
    parse(raw, DIALECT);
    return undefined;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    if (error.code === "INVALID_OPENING_QUOTE") return 'A quote (") may appear only inside a quoted field, doubled ("").';
    if (error.code === "CSV_INVALID_CLOSING_QUOTE") return "Text follows a closing quote; put the whole field in quotes.";
    throw error;
  }
}

function isBlank(record: RawRecord): boolean {
  return !record.error && record.fields.every((f) => f.trim() === "");
}

function fileError(message: string): never {
  throw new AppError("invalid_request", message, { fieldErrors: { csv: [message] } });
}
