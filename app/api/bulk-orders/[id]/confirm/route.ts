import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { confirmBulkOrder } from "@/lib/bulk-orders/confirm-bulk-order";

/**
 * The one confirmation: places every valid row in the background (buyer, the uploader).
 * Repeating it changes nothing. A file above the approval threshold or past a limit needs
 * `{approvalReason}` and then waits for an approver as a whole.
 */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    return Response.json(await confirmBulkOrder(actor, params.id, await readJsonBody(req)), { status: 202 });
  },
  { permission: "orders.create" },
);
