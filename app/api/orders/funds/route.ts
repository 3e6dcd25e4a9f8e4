import { withStaff } from "@/lib/http/with-staff";
import { getAvailableFunds } from "@/lib/orders/get-funds";

export const GET = withStaff(
  async ({ req, actor }) => Response.json(await getAvailableFunds(actor, new URL(req.url).searchParams.get("currency"))),
  {
    permission: "orders.create",
  },
);
