import { z } from "zod";
import { withStaff } from "@/lib/http/with-staff";
import { parseJsonBody } from "@/lib/http/parse";
import { confirmBulkOrder } from "@/lib/bulk-orders/confirm-bulk-order";

const body = z.object({}).strict();

/** The one confirmation: places every valid row in the background (buyer, the uploader). Repeating it changes nothing. */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await parseJsonBody(req, body);
    return Response.json(await confirmBulkOrder(actor, params.id), { status: 202 });
  },
  { permission: "orders.create" },
);
