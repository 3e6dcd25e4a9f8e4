import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { updateWorkspaceNotifications } from "@/lib/notifications/update-workspace-notifications";

/** The workspace's email defaults and chat channel (admins). The webhook URL is never answered back. */
export const PUT = withStaff(
  async ({ req, actor }) => {
    await updateWorkspaceNotifications(actor, await readJsonBody(req));
    return Response.json({ saved: true });
  },
  { permission: "settings.manage", stepUp: true },
);
