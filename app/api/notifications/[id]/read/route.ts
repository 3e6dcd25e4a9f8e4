import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { markRead } from "@/lib/notifications/inbox";

/** Marks one of one's own notifications read. */
export const POST = withStaff<{ id: string }>(async ({ req, actor, params }) => {
  await readEmptyBody(req);
  await markRead(actor, params.id);
  return Response.json({ read: true });
});
