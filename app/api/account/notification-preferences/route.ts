import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody, readJsonBody } from "@/lib/http/parse";
import { resetPreferences, savePreferences } from "@/lib/notifications/save-preferences";

/** One's own email choices (kinds, digest, quiet hours, time zone). */
export const PUT = withStaff(async ({ req, actor }) => {
  await savePreferences(actor, await readJsonBody(req));
  return Response.json({ saved: true });
});

/** Back to the workspace's defaults. */
export const DELETE = withStaff(async ({ req, actor }) => {
  await readEmptyBody(req);
  await resetPreferences(actor);
  return Response.json({ saved: true });
});
