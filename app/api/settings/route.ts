import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { getSettings } from "@/lib/settings/get-settings";
import { updateSettings } from "@/lib/settings/update-settings";

export const GET = withStaff(async () => Response.json(await getSettings()), { permission: "settings.read" });

export const PUT = withStaff(async ({ req, actor }) => Response.json(await updateSettings(actor, await readJsonBody(req))), {
  permission: "settings.manage",
  stepUp: true,
});
