import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { rejectWithdrawal } from "@/lib/withdrawals/decide-withdrawal";

/** An approver (not the requester) rejects ({comment}); it is never sent. */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => Response.json(await rejectWithdrawal(actor, params.id, await readJsonBody(req))),
  { permission: "withdrawals.approve", stepUp: true },
);
