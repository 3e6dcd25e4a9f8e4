import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { listDeposits } from "@/lib/wallet/list-deposits";

/** One page of the deposit history (`cursor`, `limit` 1–100, `currency`), newest first. */
export const GET = withStaff(
  async ({ req, actor }) =>
    Response.json(await listDeposits(actor, searchParamsObject(req.url)), { headers: { "cache-control": "no-store" } }),
  { permission: "wallet.read" },
);
