import { z } from "zod";
import { withStaff } from "@/lib/http/with-staff";
import { parseJsonBody } from "@/lib/http/parse";
import { rejectWithdrawal } from "@/lib/withdrawals/decide-withdrawal";

/** An approver (not the requester) rejects ({comment}); it is never sent. */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => Response.json(await rejectWithdrawal(actor, params.id, await parseJsonBody(req, z.record(z.string(), z.unknown())))),
  { permission: "withdrawals.approve" },
);
