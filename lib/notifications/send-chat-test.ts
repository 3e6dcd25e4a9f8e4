import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { chatFailureInWords } from "./chat-failure-words";
import { openChatWebhook } from "./chat-webhook";
import { composeChat } from "./compose";
import { postChat } from "./post-chat";
import { NOTIFICATION_SETTING_KEY, readWorkspaceNotifications } from "./workspace-settings";

/**
 * An admin checks the chat channel: one message through the channel's own sender (post-chat.ts),
 * at once, not through the outbox. Recorded before it is sent (the audit row names the
 * webhook by its hint only); what the chat service answered comes back in words.
 */
export async function sendChatTest(actor: Actor): Promise<{ sent: true } | { sent: false; problem: string }> {
  assertCan(actor, "settings.manage");
  const workspace = await readWorkspaceNotifications(db());
  if (!workspace.chatWebhookSealed || !workspace.chatWebhookHint)
    throw new AppError("conflict", "No chat webhook is set: save its URL first.", { status: 409 });
  const hint = workspace.chatWebhookHint;
  await db().$transaction((tx) =>
    recordAudit(tx, { action: "notification.chat_test", actor, targetId: NOTIFICATION_SETTING_KEY, details: { webhook: hint } }),
  );
  const message = composeChat(
    {
      title: "Test message from the back office: notifications reach this channel",
      body: `Sent by ${actor.name} from Settings.`,
      link: "/settings#notifications",
      kindLabel: "Test message",
      at: new Date(),
    },
    getEnv().APP_URL,
  );
  const outcome = await postChat(openChatWebhook(workspace.chatWebhookSealed), message);
  return outcome.kind === "sent" ? { sent: true } : { sent: false, problem: chatFailureInWords(outcome.reason) };
}
