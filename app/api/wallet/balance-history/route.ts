import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { getBalanceHistory } from "@/lib/wallet/get-balance-history";

/** The available balance of one currency over time (`currency`, `days` 1–365), from the app's records. */
export const GET = withStaff(
  async ({ req, actor }) =>
    Response.json(await getBalanceHistory(actor, searchParamsObject(req.url)), { headers: { "cache-control": "no-store" } }),
  { permission: "wallet.read" },
);
