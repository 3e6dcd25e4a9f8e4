import type { FieldErrors } from "@/lib/errors";
import { E164 } from "@/lib/orders/schemas";
import { amountProblem, MAX_FACE_VALUE_DECIMALS } from "@/lib/money";
import { textProblem } from "@/lib/validation";
import { BULK_COLUMNS, type BulkCells } from "./parse-csv";

/**
 * The shape checks of one row, before anything is asked of the Issuing Service: what can
 * be said from the cells alone. The product checks (variant belongs, value on the grid,
 * phone needed) come after, in check-rows.ts.
 */
export type RowInput = {
  productId: string;
  variantId: string | null;
  /** A decimal string ("25", "12.50"): values are compared on the grid without floats. */
  value: string | null;
  quantity: number;
  clientReference: string;
  phoneNumber: string | null;
};

/** The upstream accepts 1–100 per order (sandbox/README.md); a larger row would fail at placement. */
export const MAX_ROW_QUANTITY = 100;

export function readRowInput(cells: BulkCells): { input: RowInput | null; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => void (errors[field] ??= [message]);
  // Every cell is one-line text (a quoted cell may hold a line break; no column wants one).
  for (const column of BULK_COLUMNS) {
    const problem = textProblem(cells[column], { multiline: false });
    if (problem) add(column, problem);
  }

  const productId = cells.productId;
  if (!productId) add("productId", "Enter the product id.");
  else if (productId.length > 200) add("productId", "A product id has at most 200 characters.");

  const variantId = cells.variantId || null;
  if (variantId && variantId.length > 200) add("variantId", "A variant id has at most 200 characters.");

  const value = cells.value ? cells.value.replace(/^\+/, "") : null;
  // The face value, bounded by the rule every client amount follows (a cell is a client's amount too).
  const valueProblem = value !== null ? amountProblem(value, { maxDecimals: MAX_FACE_VALUE_DECIMALS }) : null;
  if (valueProblem) add("value", valueProblem);
  if (variantId && value !== null) add("value", "Give a variant id or a value, not both.");
  if (!variantId && value === null)
    add("variantId", "Give a variant id (for products sold by variant) or a value (for products sold by value).");

  let quantity = 0;
  if (!cells.quantity) add("quantity", "Enter a quantity.");
  else if (!/^\d{1,6}$/.test(cells.quantity)) add("quantity", "The quantity must be a whole number.");
  else {
    quantity = Number(cells.quantity);
    if (quantity < 1) add("quantity", "The quantity must be at least 1.");
    else if (quantity > MAX_ROW_QUANTITY)
      add("quantity", `At most ${MAX_ROW_QUANTITY} per row; split larger quantities over several rows.`);
  }

  const clientReference = cells.clientReference;
  if (!clientReference) add("clientReference", "Enter a client reference (your own id for this order).");
  else if (clientReference.length > 100) add("clientReference", "A client reference has at most 100 characters.");

  // Spreadsheets like to format phone numbers: spaces, dashes, dots and brackets are dropped.
  const phoneNumber = cells.phoneNumber ? cells.phoneNumber.replace(/[\s\-().]/g, "") : null;
  if (phoneNumber !== null && !E164.test(phoneNumber))
    add("phoneNumber", "Write the number in international format with its +, e.g. +447700900123.");

  if (Object.keys(errors).length > 0) return { input: null, errors };
  return { input: { productId, variantId, value, quantity, clientReference, phoneNumber }, errors };
}
