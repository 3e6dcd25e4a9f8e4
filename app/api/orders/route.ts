import { z } from "zod";
import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody, searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { submitOrder } from "@/lib/orders/place-order";
import { getSpendRequest } from "@/lib/spend/get-spend-request";
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

/**
 * Places one order (buyer). The same idempotencyKey again returns the same order. Above the
 * approval threshold or past a limit: 409 approval_required without an `approvalReason`,
 * else 202 with the stored request (`awaitingApproval`), nothing sent.
 */
export const POST = withStaff(
  async ({ req, actor }) => {
    const result = await submitOrder(actor, await readJsonBody(req));
    if (result.kind === "awaiting") {
      const awaitingApproval = await getSpendRequest(actor, result.spendRequestId);
      return Response.json(
        { awaitingApproval },
        { status: 202, headers: { location: `/api/spend-requests/${result.spendRequestId}` } },
      );
    }
    const { order, replayed } = result;
    return Response.json(
      { order, replayed },
      { status: replayed ? 200 : 201, headers: { location: `/api/orders/${encodeURIComponent(order.id)}` } },
    );
  },
  { permission: "orders.create" },
);
