import { withStaff } from "@/lib/http/with-staff";
import { getOrder } from "@/lib/orders/get-order";

/** One order from the mirror (an id it lacks is asked of the upstream once); the order page polls this while the order is open. */
export const GET = withStaff<{ id: string }>(
  async ({ actor, params }) => {
    const order = await getOrder(actor, params.id);
    return Response.json(order, { headers: { "cache-control": "no-store" } });
  },
  { permission: "orders.read" },
);
