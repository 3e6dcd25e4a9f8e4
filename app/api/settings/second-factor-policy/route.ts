import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { readSecondFactorPolicy } from "@/lib/auth/second-factor/policy";
import { updateSecondFactorPolicy } from "@/lib/auth/second-factor/update-policy";

/** Which roles must have a second factor ({roles}). */
export const GET = withStaff(async () => Response.json(await readSecondFactorPolicy()), { permission: "settings.read" });

export const PUT = withStaff(
  async ({ req, actor }) => Response.json(await updateSecondFactorPolicy(actor, await readJsonBody(req))),
  { permission: "settings.manage", stepUp: true },
);
