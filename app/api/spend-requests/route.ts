import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { listSpendRequests } from "@/lib/spend/list-spend-requests";

/** Spend approval requests, waiting ones first (`state` filters). Approvers see all; a buyer their own. */
export const GET = withStaff(
  async ({ req, actor }) =>
    Response.json(await listSpendRequests(actor, searchParamsObject(req.url)), { headers: { "cache-control": "no-store" } }),
  {
    permission: "spend.read",
  },
);
