import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { confirmBulkOrder } from "@/lib/bulk-orders/confirm-bulk-order";

/** The one confirmation: places every valid row in the background (buyer, the uploader). Repeating it changes nothing. */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    return Response.json(await confirmBulkOrder(actor, params.id), { status: 202 });
  },
  { permission: "orders.create" },
);
