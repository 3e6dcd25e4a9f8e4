import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { readSsoOnly } from "@/lib/auth/sso/sso-only";
import { updateSsoOnly } from "@/lib/auth/sso/update-sso-only";

/** Whether single sign-on is the only way in ({ssoOnly}), and whether it is configured. */
export const GET = withStaff(async () => Response.json(await readSsoOnly()), { permission: "settings.read" });

export const PUT = withStaff(async ({ req, actor }) => Response.json(await updateSsoOnly(actor, await readJsonBody(req))), {
  permission: "settings.manage",
  stepUp: true,
});
