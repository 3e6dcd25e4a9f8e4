import { withStaff } from "@/lib/http/with-staff";
import { getWithdrawal } from "@/lib/withdrawals/get-withdrawal";

export const GET = withStaff<{ id: string }>(
  async ({ actor, params }) => Response.json(await getWithdrawal(actor, params.id), { headers: { "cache-control": "no-store" } }),
  {
    permission: "withdrawals.read",
  },
);
