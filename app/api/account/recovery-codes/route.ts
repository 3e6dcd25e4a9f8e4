import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { regenerateRecoveryCodes } from "@/lib/auth/second-factor/manage-factors";

/** A fresh set of recovery codes, shown this once; the old set stops working. */
export const POST = withStaff(
  async ({ req, actor }) => {
    await readEmptyBody(req);
    return Response.json(await regenerateRecoveryCodes(actor), { status: 201 });
  },
  { stepUp: true },
);
