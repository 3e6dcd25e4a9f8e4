import { withStaff } from "@/lib/http/with-staff";
import { getWalletOverview } from "@/lib/wallet/get-wallet-overview";

const NO_STORE = { "cache-control": "no-store" };

/** Every currency's balance, read from the Issuing Service now, with the time it was read. */
export const GET = withStaff(async ({ actor }) => Response.json(await getWalletOverview(actor), { headers: NO_STORE }), {
  permission: "wallet.read",
});
