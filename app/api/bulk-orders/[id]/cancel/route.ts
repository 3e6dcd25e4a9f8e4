import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { cancelBulkOrder } from "@/lib/bulk-orders/cancel-bulk-order";

/** Stops the rows not yet sent, or discards a preview (buyer, the uploader). */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    return Response.json(await cancelBulkOrder(actor, params.id));
  },
  { permission: "orders.create" },
);
