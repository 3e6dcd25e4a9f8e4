import "server-only";
import { AppError, type FieldErrors } from "@/lib/errors";
import { toMinor } from "@/lib/money";
import type { Product, Spender } from "@/lib/upstream/client";
import { upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import type { BulkCells, ParsedRow } from "./parse-csv";
import { readRowInput, type RowInput } from "./row-input";
import { describeGrid, isOnGrid } from "./value-grid";
import { faceCurrencyOf } from "@/lib/catalog/face-value";

/**
 * Checks every row against its product and prices the valid ones: a variant's price ×
 * quantity, or a quote for a value (whose price only the Issuing Service knows). Products
 * come through the client's cached, coalesced getProduct; each distinct product and each
 * distinct (product, value, quantity) is asked once. The distinct counts are bounded so
 * that one preview stays within about a minute of the shared request budget.
 */
/** The checked order of a valid row, as stored on it and sent (with its key) at placement. */
export type BulkRowRequest = RowInput & { currency: string };
export type CheckedRow = {
  rowNumber: number;
  cells: BulkCells;
  errors: FieldErrors;
  request: BulkRowRequest | null;
  productName: string | null;
  optionLabel: string | null;
  totalMinor: bigint | null;
  currency: string | null;
};

export const MAX_DISTINCT_PRODUCTS = 50;
export const MAX_DISTINCT_QUOTES = 50;
const LOOKUP_CONCURRENCY = 4;
/**
 * A file's lookups are the uploader's, held to their share of the upstream's minute: past it
 * they wait for the next minute rather than fail the file, so a large file takes a little
 * longer and never takes the workspace's minute.
 */
const BULK_CALL = { patient: true, deadlineMs: 150_000 } as const;

export async function checkRows(parsed: ParsedRow[], by: Spender): Promise<CheckedRow[]> {
  const rows = parsed.map((row) => {
    const { input, errors } = row.errors._row ? { input: null, errors: {} } : readRowInput(row.cells);
    return {
      row,
      input,
      checked: {
        rowNumber: row.rowNumber,
        cells: row.cells,
        errors: { ...row.errors, ...errors },
        request: null,
        productName: null,
        optionLabel: null,
        totalMinor: null,
        currency: null,
      } as CheckedRow,
    };
  });

  // Rows with other problems are looked up too, so that the preview can name their product.
  const productIds = [
    ...new Set(
      rows.flatMap(({ row }) =>
        !row.errors._row && row.cells.productId && row.cells.productId.length <= 200 ? [row.cells.productId] : [],
      ),
    ),
  ];
  if (productIds.length > MAX_DISTINCT_PRODUCTS)
    tooMany(`The file names ${productIds.length} different products; one upload may name at most ${MAX_DISTINCT_PRODUCTS}.`);
  const products = new Map(
    await mapLimit(productIds, LOOKUP_CONCURRENCY, async (id) => [id, await findProduct(id, by)] as const),
  );

  const quoteKeys = new Map<string, { productId: string; value: string; quantity: number; currency: string }>();
  for (const { input, checked } of rows) {
    if (!input) {
      const product = products.get(checked.cells.productId);
      checked.productName = product?.name ?? null;
      // A product that cannot be bought at all is the row's news, not how it was to be bought.
      if (product !== undefined) reportUnorderable(checked, product);
      continue;
    }
    const product = products.get(input.productId) ?? null;
    const pending = checkAgainstProduct(input, product, checked);
    if (pending) quoteKeys.set(quoteKey(pending), pending);
  }

  if (quoteKeys.size > MAX_DISTINCT_QUOTES)
    tooMany(
      `The file has ${quoteKeys.size} different value purchases to price; one upload may have at most ${MAX_DISTINCT_QUOTES}.`,
    );
  const quotes = new Map(
    await mapLimit([...quoteKeys], LOOKUP_CONCURRENCY, async ([key, q]) => [key, await priceValue(q, by)] as const),
  );
  for (const { input, checked } of rows) {
    if (!input || !checked.request || checked.request.value === null) continue;
    const quote = quotes.get(quoteKey({ ...checked.request, value: checked.request.value }))!;
    if ("error" in quote) {
      checked.errors[quote.field] = [quote.error];
      checked.request = null;
    } else {
      checked.totalMinor = quote.totalMinor;
      checked.currency = quote.currency;
    }
  }

  flagDuplicateReferences(rows.map((r) => r.checked));
  for (const { checked } of rows) if (Object.keys(checked.errors).length > 0) checked.request = null;
  return rows.map((r) => r.checked);
}

/** Fills name, option, request and (for variants) the price; returns what is left to quote. */
function checkAgainstProduct(input: RowInput, product: Product | null, checked: CheckedRow) {
  checked.productName = product?.name ?? null;
  if (reportUnorderable(checked, product) || !product) return null;
  const errors = checked.errors;
  if (product.type === "phone-top-up" && !input.phoneNumber)
    errors.phoneNumber = ["A top-up needs the phone number to credit, in international format, e.g. +447700900123."];
  if (product.type !== "phone-top-up" && input.phoneNumber)
    errors.phoneNumber = ["Only phone top-ups take a phone number; leave this empty."];

  const request: BulkRowRequest = { ...input, currency: product.currency };
  if (product.variants.length > 0) {
    if (input.value !== null) errors.value = ["This product is sold by variant: give a variantId, not a value."];
    const variant = product.variants.find((v) => v.id === input.variantId);
    if (input.variantId && !variant) {
      const choices = product.variants
        .slice(0, 6)
        .map((v) => `${v.id} (${v.displayValue})`)
        .join(", ");
      errors.variantId = [`Not a variant of this product. Its variants: ${choices}${product.variants.length > 6 ? ", …" : ""}.`];
    }
    if (!variant || Object.keys(errors).length > 0) return null;
    checked.optionLabel = variant.displayValue;
    checked.totalMinor = toMinor(variant.price, variant.currency) * BigInt(input.quantity);
    checked.currency = variant.currency;
    checked.request = request;
    return null;
  }

  const { minimumValue, maximumValue, valueStep } = product;
  if (minimumValue === null || maximumValue === null || valueStep === null) {
    errors.productId = ["This product offers neither variants nor a value range; it cannot be ordered."];
    return null;
  }
  if (input.variantId) errors.variantId = ["This product is sold by value: give a value, not a variantId."];
  const grid = { minimumValue, maximumValue, valueStep };
  if (input.value !== null && !isOnGrid(input.value, grid))
    errors.value = [`Not on this product's grid: choose a value ${describeGrid(grid, faceCurrencyOf(product))}.`];
  if (input.value === null || Object.keys(errors).length > 0) return null;
  const faceCurrency = faceCurrencyOf(product);
  checked.optionLabel = `Value ${faceCurrency ? `${faceCurrency} ` : ""}${input.value}`;
  checked.request = request;
  return { productId: product.id, value: input.value, quantity: input.quantity, currency: product.currency };
}

const NO_SUCH_PRODUCT = "No product with this id in the catalog.";
const UNAVAILABLE = "This product is unavailable right now.";
const MOOT_FOR_NO_PRODUCT = new Set(["productId", "variantId", "value"]);

/**
 * A product the catalog lacks or does not sell now: said first, as the row's one product
 * problem, and the row's complaints about its variant or value dropped (moot for a product
 * nobody can buy; "Give a variant id" is how an unavailable product used to read).
 * True when the row cannot be ordered for that reason.
 */
function reportUnorderable(checked: CheckedRow, product: Product | null): boolean {
  const problem = !product ? NO_SUCH_PRODUCT : product.isAvailable ? null : UNAVAILABLE;
  if (!problem) return false;
  const rest = Object.entries(checked.errors).filter(([field]) => !MOOT_FOR_NO_PRODUCT.has(field));
  checked.errors = { productId: [problem], ...Object.fromEntries(rest) };
  return true;
}

async function findProduct(id: string, by: Spender): Promise<Product | null> {
  try {
    return await upstream().getProduct(id, { ...BULK_CALL, by });
  } catch (error) {
    if (upstreamFailure(error)?.status === 404) return null;
    throw error;
  }
}

type Priced = { totalMinor: bigint; currency: string } | { field: string; error: string };

async function priceValue(
  q: { productId: string; value: string; quantity: number; currency: string },
  by: Spender,
): Promise<Priced> {
  try {
    const { data } = await upstream().createQuote(
      {
        productId: q.productId,
        variantId: null,
        value: Number(q.value),
        quantity: q.quantity,
        currency: q.currency,
      },
      { ...BULK_CALL, by },
    );
    return { totalMinor: toMinor(data.total, data.currency), currency: data.currency };
  } catch (error) {
    const failure = upstreamFailure(error);
    if (!failure) throw error;
    if (failure.code === "product_unavailable") return { field: "productId", error: UNAVAILABLE };
    if (failure.status === 404) return { field: "productId", error: NO_SUCH_PRODUCT };
    if (failure.status === 409 || failure.status === 400)
      return { field: "value", error: `The Issuing Service would not price this: ${failure.message}` };
    throw error;
  }
}

/**
 * A client reference names one order: the first row that gives it keeps it, and every later
 * row with the same one is skipped (a file pasted twice over itself orders each line once).
 */
function flagDuplicateReferences(rows: CheckedRow[]): void {
  const firstRow = new Map<string, number>();
  for (const row of rows) {
    const reference = row.cells.clientReference;
    if (!reference) continue;
    const first = firstRow.get(reference);
    if (first === undefined) firstRow.set(reference, row.rowNumber);
    else
      row.errors.clientReference ??= [
        `Row ${first} already uses this client reference; each order needs its own, so this row is skipped.`,
      ];
  }
}

function quoteKey(q: { productId: string; value: string; quantity: number }): string {
  return `${q.productId}\u0000${q.value}\u0000${q.quantity}`;
}

function tooMany(message: string): never {
  throw new AppError("invalid_request", `${message} Split the file into several uploads.`, {
    fieldErrors: { csv: [`${message} Split the file into several uploads.`] },
  });
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}
