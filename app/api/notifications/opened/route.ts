import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { markOpenedRead } from "@/lib/notifications/inbox";

/** The page one has opened ({link}): one's unread notifications that lead there are read ({marked}). */
export const POST = withStaff(async ({ req, actor }) => Response.json(await markOpenedRead(actor, await readJsonBody(req))));
