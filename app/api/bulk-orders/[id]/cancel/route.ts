import { z } from "zod";
import { withStaff } from "@/lib/http/with-staff";
import { parseJsonBody } from "@/lib/http/parse";
import { cancelBulkOrder } from "@/lib/bulk-orders/cancel-bulk-order";

const body = z.object({}).strict();

/** Stops the rows not yet sent, or discards a preview (buyer, the uploader). */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await parseJsonBody(req, body);
    return Response.json(await cancelBulkOrder(actor, params.id));
  },
  { permission: "orders.create" },
);
