import { withStaff } from "@/lib/http/with-staff";
import { parseJsonBody } from "@/lib/http/parse";
import { getQuote, quoteRequestSchema } from "@/lib/orders/get-quote";

export const POST = withStaff(async ({ req, actor }) => Response.json(await getQuote(actor, await parseJsonBody(req, quoteRequestSchema)), { status: 201 }), {
  permission: "orders.create",
});
