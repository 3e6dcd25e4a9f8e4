import { z } from "zod";
import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody, searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { placeOrder } from "@/lib/orders/place-order";
import { orderCursorSchema, orderFilterSchema } from "@/lib/orders/list-orders";
import { searchOrders } from "@/lib/orders/search-orders";

const listQuerySchema = orderFilterSchema.safeExtend({
  cursor: orderCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/** The mirrored orders, filtered and paged; a client reference found nowhere here is asked of the upstream. */
export const GET = withStaff(
  async ({ req, actor }) => {
    const url = new URL(req.url);
    const query = { ...searchParamsObject(url), status: url.searchParams.getAll("status") };
    const { cursor, limit, ...filter } = parseInput(listQuerySchema, query);
    return Response.json(await searchOrders(actor, filter, { cursor, limit }), { headers: { "cache-control": "no-store" } });
  },
  { permission: "orders.read" },
);

/** Places one order (buyer). The same idempotencyKey again returns the same order. */
export const POST = withStaff(
  async ({ req, actor }) => {
    const { order, replayed } = await placeOrder(actor, await readJsonBody(req));
    return Response.json(
      { order, replayed },
      { status: replayed ? 200 : 201, headers: { location: `/api/orders/${encodeURIComponent(order.id)}` } },
    );
  },
  { permission: "orders.create" },
);
