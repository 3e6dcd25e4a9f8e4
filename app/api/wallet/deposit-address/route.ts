import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { getDepositAddress } from "@/lib/wallet/deposit-address";
import { requestDepositAddress } from "@/lib/wallet/request-deposit-address";

/** The permanent BSC-USD deposit address, or `{address: null}` while none was requested. */
export const GET = withStaff(
  async ({ actor }) => {
    const address = await getDepositAddress(actor);
    return Response.json(address ?? { address: null }, { headers: { "cache-control": "no-store" } });
  },
  { permission: "wallet.read" },
);

/** Finance requests the address (no body; an empty object at most). 201 the first time, 200 after. */
export const PUT = withStaff(
  async ({ req, actor }) => {
    await readEmptyBody(req);
    const address = await requestDepositAddress(actor);
    return Response.json(address, { status: address.created ? 201 : 200 });
  },
  { permission: "wallet.deposit-address", stepUp: true },
);
