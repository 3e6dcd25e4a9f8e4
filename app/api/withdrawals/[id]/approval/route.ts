import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { approveWithdrawal } from "@/lib/withdrawals/decide-withdrawal";

/** An approver (not the requester) approves ({comment?}); the app then sends it upstream. */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => Response.json(await approveWithdrawal(actor, params.id, await readJsonBody(req))),
  { permission: "withdrawals.approve", stepUp: true },
);
