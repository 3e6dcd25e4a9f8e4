import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { chatFailureInWords } from "./chat-failure-words";
import { readWorkspaceNotifications } from "./workspace-settings";

/** The chat webhook as Settings and the admin home show it; `failing` when its last message since it was set failed. */
export type ChatWebhookHealth = {
  hint: string;
  failing: { at: string; words: string; retrying: boolean } | null;
};

/**
 * Whether the workspace's chat webhook works, from the outbox: failing when a chat delivery
 * failed (or waits to be retried after failing) after the last one sent, counting only since
 * the webhook was set. Null when no webhook is set.
 */
export async function readChatWebhookHealth(actor: Actor): Promise<ChatWebhookHealth | null> {
  assertCan(actor, "settings.read");
  const workspace = await readWorkspaceNotifications(db());
  if (!workspace.chatWebhookSealed || !workspace.chatWebhookHint) return null;
  const since = workspace.chatWebhookSetAt ? new Date(workspace.chatWebhookSetAt) : new Date(0);
  const [failed, sent] = await Promise.all([
    db().notificationDelivery.findFirst({
      where: { channel: "chat", status: { in: ["failed", "pending"] }, lastError: { not: null }, updatedAt: { gt: since } },
      orderBy: { updatedAt: "desc" },
      select: { status: true, lastError: true, updatedAt: true },
    }),
    db().notificationDelivery.findFirst({
      where: { channel: "chat", status: "sent", sentAt: { gt: since } },
      orderBy: { sentAt: "desc" },
      select: { sentAt: true },
    }),
  ]);
  const failing = failed?.lastError && (!sent?.sentAt || failed.updatedAt > sent.sentAt) ? failed : null;
  return {
    hint: workspace.chatWebhookHint,
    failing: failing
      ? {
          at: failing.updatedAt.toISOString(),
          words: chatFailureInWords(failing.lastError!),
          retrying: failing.status === "pending",
        }
      : null,
  };
}
