import { withStaff } from "@/lib/http/with-staff";
import { getSpendRequest } from "@/lib/spend/get-spend-request";

/** One spend approval request. */
export const GET = withStaff<{ id: string }>(
  async ({ actor, params }) =>
    Response.json(await getSpendRequest(actor, params.id), { headers: { "cache-control": "no-store" } }),
  {
    permission: "spend.read",
  },
);
