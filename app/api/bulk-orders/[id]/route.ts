import { withStaff } from "@/lib/http/with-staff";
import { getBulkOrder } from "@/lib/bulk-orders/get-bulk-order";

/** A bulk order with its progress and per-row results; the page polls this while it runs. */
export const GET = withStaff<{ id: string }>(
  async ({ actor, params }) => Response.json(await getBulkOrder(actor, params.id), { headers: { "cache-control": "no-store" } }),
  { permission: "orders.read" },
);
