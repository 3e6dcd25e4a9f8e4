import { withStaff } from "@/lib/http/with-staff";
import { parseJsonBody } from "@/lib/http/parse";
import { getSettings } from "@/lib/settings/get-settings";
import { updateSettings } from "@/lib/settings/update-settings";
import { z } from "zod";

export const GET = withStaff(async () => Response.json(await getSettings()), { permission: "settings.read" });

// Shape is checked by the domain function; here only "a JSON object".
export const PUT = withStaff(
  async ({ req, actor }) => Response.json(await updateSettings(actor, await parseJsonBody(req, z.record(z.string(), z.unknown())))),
  { permission: "settings.manage" },
);
