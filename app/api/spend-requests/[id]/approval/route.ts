import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { approveSpendRequest } from "@/lib/spend/decide-spend-request";

/** An approver (never the buyer who asked) approves ({comment?}); the order is then placed at the approved total. */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => Response.json(await approveSpendRequest(actor, params.id, await readJsonBody(req))),
  { permission: "spend.approve", stepUp: true },
);
