import "server-only";
import { z } from "zod";
import { singleLineText, parseInput } from "@/lib/validation";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { toCsvRow } from "@/lib/csv";
import { getProduct } from "@/lib/catalog/get-product";
import { BULK_COLUMNS } from "./parse-csv";

export const templateQuerySchema = z.strictObject({
  productId: singleLineText({ error: "Name a product." }).min(1, "Name a product.").max(200, "Not a product id."),
});

/**
 * A bulk-order CSV to start from, prefilled for one product: the header, then one row per
 * variant (or one at the lowest value of a value product), quantity 1. The client
 * reference is left empty on purpose: the preview refuses the file until a person has
 * written one per row, so the template cannot be uploaded by mistake as it is.
 */
export async function bulkTemplate(actor: Actor, input: unknown): Promise<{ fileName: string; csv: string }> {
  assertCan(actor, "orders.create");
  const { productId } = parseInput(templateQuerySchema, input);
  const product = await getProduct(actor, productId);
  const rows = product.variants.length
    ? product.variants.map((v) => ({ variantId: v.id, value: "" }))
    : [{ variantId: "", value: product.minimumValue === null ? "" : String(product.minimumValue) }];
  const lines = rows.map((r) => toCsvRow([product.id, r.variantId, r.value, 1, "", ""]));
  return {
    fileName: `bulk-template-${product.id.replace(/[^\w.-]+/g, "_")}.csv`,
    csv: toCsvRow([...BULK_COLUMNS]) + lines.join(""),
  };
}
