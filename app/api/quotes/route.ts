import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { getQuote } from "@/lib/orders/get-quote";

export const POST = withStaff(
  async ({ req, actor }) => Response.json(await getQuote(actor, await readJsonBody(req)), { status: 201 }),
  {
    permission: "orders.create",
  },
);
