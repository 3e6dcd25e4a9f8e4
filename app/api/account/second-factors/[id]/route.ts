import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { removeMyFactor } from "@/lib/auth/second-factor/manage-factors";

/** Removes one of one's own second factors (the last only where the policy allows none). */
export const DELETE = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    await removeMyFactor(actor, params.id);
    return new Response(null, { status: 204 });
  },
  { stepUp: true },
);
