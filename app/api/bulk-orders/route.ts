import { z } from "zod";
import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody, searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { listBulkOrders } from "@/lib/bulk-orders/list-bulk-orders";
import { previewBulkOrder } from "@/lib/bulk-orders/preview-bulk-order";
import { MAX_CSV_BYTES } from "@/lib/bulk-orders/parse-csv";

// JSON-escaping can grow a CSV (quotes, non-ASCII): room for that, the file limit itself is checked inside.
const MAX_BODY_BYTES = 2 * MAX_CSV_BYTES + 4096;

/** Uploads a CSV: every row checked and priced, stored as a draft to confirm (buyer). */
export const POST = withStaff(
  async ({ req, actor }) =>
    Response.json(await previewBulkOrder(actor, await readJsonBody(req, MAX_BODY_BYTES)), { status: 201 }),
  { permission: "orders.create" },
);

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).optional() }).strict();

/** The signed-in person's recent bulk orders. */
export const GET = withStaff(
  async ({ req, actor }) =>
    Response.json({ items: await listBulkOrders(actor, parseInput(listQuery, searchParamsObject(req.url))) }),
  { permission: "orders.read" },
);
