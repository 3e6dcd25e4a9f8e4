import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { rejectSpendRequest } from "@/lib/spend/decide-spend-request";

/** An approver (never the buyer who asked) rejects ({comment}); nothing is ever sent. */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => Response.json(await rejectSpendRequest(actor, params.id, await readJsonBody(req))),
  { permission: "spend.approve", stepUp: true },
);
