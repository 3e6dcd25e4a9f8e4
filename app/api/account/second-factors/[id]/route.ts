import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody, readJsonBody } from "@/lib/http/parse";
import { removeMyFactor, renameMyFactor } from "@/lib/auth/second-factor/manage-factors";

/** Removes one of one's own second factors (the last only where the policy allows none). */
export const DELETE = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    await removeMyFactor(actor, params.id);
    return new Response(null, { status: 204 });
  },
  { stepUp: true },
);

/** Renames one of one's own second factors ({name}). */
export const PATCH = withStaff<{ id: string }>(async ({ req, actor, params }) =>
  Response.json(await renameMyFactor(actor, params.id, await readJsonBody(req))),
);
