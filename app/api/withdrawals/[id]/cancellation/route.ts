import { withStaff } from "@/lib/http/with-staff";
import { cancelWithdrawal } from "@/lib/withdrawals/cancel-withdrawal";

/** Finance or an approver cancels: in the app before sending, upstream until it is paid. */
export const POST = withStaff<{ id: string }>(
  async ({ actor, params }) => Response.json(await cancelWithdrawal(actor, params.id)),
  { permission: "withdrawals.cancel" },
);
