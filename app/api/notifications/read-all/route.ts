import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { markAllRead } from "@/lib/notifications/inbox";

/** Marks every one of one's own notifications read. */
export const POST = withStaff(async ({ req, actor }) => {
  await readEmptyBody(req);
  return Response.json(await markAllRead(actor));
});
