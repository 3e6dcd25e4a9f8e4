import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { sendChatTest } from "@/lib/notifications/send-chat-test";

/** Sends one test message to the workspace's chat webhook (admins): {sent: true}, or {sent: false, problem} in words. */
export const POST = withStaff(
  async ({ req, actor }) => {
    await readEmptyBody(req);
    return Response.json(await sendChatTest(actor));
  },
  { permission: "settings.manage" },
);
