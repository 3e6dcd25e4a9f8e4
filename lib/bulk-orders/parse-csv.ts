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

export function parseBulkCsv(text: string): ParsedRow[] {
  if (Buffer.byteLength(text, "utf8") > MAX_CSV_BYTES) fileError(`The file is larger than ${MAX_CSV_BYTES / 1024} KiB. Split it into several uploads.`);
  const records = tokenize(text.replace(/^\uFEFF/, ""));
  while (records.length && isBlank(records[records.length - 1]!)) records.pop();
  if (records.length === 0) fileError("The file is empty. The first row must name the columns, e.g. productId,variantId,value,quantity,clientReference,phoneNumber.");

  const columns = readHeader(records[0]!);
  const rows: ParsedRow[] = [];
  for (let i = 1; i < records.length; i++) {
    const record = records[i]!;
    if (isBlank(record)) continue;
    const cells = Object.fromEntries(BULK_COLUMNS.map((c) => [c, ""])) as BulkCells;
    const errors: FieldErrors = {};
    if (record.error) errors._row = [record.error];
    else if (record.fields.length !== columns.length) errors._row = [`Has ${record.fields.length} ${record.fields.length === 1 ? "field" : "fields"}; the header has ${columns.length}.`];
    columns.forEach((column, index) => (cells[column] = (record.fields[index] ?? "").trim()));
    rows.push({ rowNumber: i + 1, cells, errors });
  }
  if (rows.length === 0) fileError("The file has a header row but no orders under it.");
  if (rows.length > MAX_CSV_ROWS) fileError(`The file has ${rows.length} rows; one upload may have at most ${MAX_CSV_ROWS}. Split it into several uploads.`);
  return rows;
}

function readHeader(record: RawRecord): BulkColumn[] {
  if (record.error) fileError(`The header row is not valid CSV: ${record.error}`);
  const names = record.fields.map((f) => f.trim());
  if (names.length === 1 && /;|\t/.test(names[0]!)) fileError("Columns must be separated by commas; this header uses semicolons or tabs. Export the sheet as “CSV (comma delimited)”.");
  const byLower = new Map(BULK_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const columns: BulkColumn[] = [];
  for (const name of names) {
    const column = byLower.get(name.toLowerCase());
    if (!column) fileError(`Unknown column “${name || "(empty)"}”. The columns are: ${BULK_COLUMNS.join(", ")}.`);
    if (columns.includes(column)) fileError(`The column “${column}” appears twice in the header.`);
    columns.push(column);
  }
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length) fileError(`The header has no ${missing.join(", ")} column${missing.length > 1 ? "s" : ""}. The columns are: ${BULK_COLUMNS.join(", ")}.`);
  if (!columns.includes("variantId") && !columns.includes("value")) fileError("The header needs a variantId column, a value column, or both.");
  return columns;
}

/** Splits the text into records of fields; a malformed record carries its error instead of failing the file. */
function tokenize(text: string): RawRecord[] {
  const records: RawRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let error: string | undefined;
  let i = 0;
  const endField = () => {
    fields.push(field);
    field = "";
  };
  const endRecord = () => {
    endField();
    records.push(error ? { fields, error } : { fields });
    fields = [];
    error = undefined;
  };

  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"' && field === "") {
      // A quoted field: runs to the next quote not doubled.
      const start = records.length + 1;
      i++;
      for (;;) {
        if (i >= text.length) fileError(`Row ${start}: a quoted field is never closed (a " is missing).`);
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
      if (i < text.length && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") {
        error ??= "Text follows a closing quote; put the whole field in quotes.";
        while (i < text.length && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") field += text[i++];
      }
      continue;
    }
    if (ch === ",") {
      endField();
      i++;
    } else if (ch === "\r" || ch === "\n") {
      endRecord();
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      if (ch === '"') error ??= 'A quote (") may appear only inside a quoted field, doubled ("").';
      field += ch;
      i++;
    }
  }
  if (field !== "" || fields.length > 0) endRecord();
  return records;
}

function isBlank(record: RawRecord): boolean {
  return !record.error && record.fields.every((f) => f.trim() === "");
}

function fileError(message: string): never {
  throw new AppError("invalid_request", message, { fieldErrors: { csv: [message] } });
}
