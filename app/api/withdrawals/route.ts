import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody, searchParamsObject } from "@/lib/http/parse";
import { listWithdrawals } from "@/lib/withdrawals/list-withdrawals";
import { requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";

const noStore = { "cache-control": "no-store" };

/** Withdrawal requests, newest first (`state`: one state or "open"; `page`). */
export const GET = withStaff(
  async ({ req, actor }) => Response.json(await listWithdrawals(actor, searchParamsObject(req.url)), { headers: noStore }),
  {
    permission: "withdrawals.read",
  },
);

/** Finance requests a withdrawal ({amount, currency, reason}); stored for approval, not sent. */
export const POST = withStaff(
  async ({ req, actor }) => {
    const view = await requestWithdrawal(actor, await readJsonBody(req));
    return Response.json(view, { status: 201, headers: { ...noStore, location: `/api/withdrawals/${view.id}` } });
  },
  { permission: "withdrawals.request", stepUp: true },
);
