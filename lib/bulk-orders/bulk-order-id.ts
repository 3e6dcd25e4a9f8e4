import { z } from "zod";
import { parseInput } from "@/lib/validation";

export const bulkOrderIdSchema = z.string().uuid("Not a bulk order id.");

/** A bulk order id from a URL: anything else is a 400, before any lookup. */
export function parseBulkOrderId(id: unknown): string {
  return parseInput(z.object({ id: bulkOrderIdSchema }), { id }).id;
}
