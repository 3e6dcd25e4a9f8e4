import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { listCredits } from "@/lib/wallet/list-credits";

/** The most recent wallet.credited webhooks (`limit` 1–100), each with its matched deposit or none. */
export const GET = withStaff(
  async ({ req, actor }) =>
    Response.json(await listCredits(actor, searchParamsObject(req.url)), { headers: { "cache-control": "no-store" } }),
  { permission: "wallet.read" },
);
