import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { parseInput } from "@/lib/validation";
import { chatWebhookHint, sealChatWebhook } from "./chat-webhook";
import { workspaceChoicesSchema } from "./preference-input";
import { NOTIFICATION_SETTING_KEY, readWorkspaceNotifications, type WorkspaceNotificationSettings } from "./workspace-settings";

/**
 * Admins set the workspace's email defaults and the chat channel. The webhook URL is sealed
 * before it is stored and never read back to a browser (only its hint); the audit row says
 * which choices changed and whether the webhook was set or removed, never the URL.
 */
export async function updateWorkspaceNotifications(actor: Actor, input: unknown): Promise<void> {
  assertCan(actor, "settings.manage");
  const { chatWebhookUrl, ...choices } = parseInput(workspaceChoicesSchema, input);
  await db().$transaction(async (tx) => {
    const before = await readWorkspaceNotifications(tx);
    const next: WorkspaceNotificationSettings = { ...before, ...choices };
    let webhook: "set" | "removed" | "unchanged" = "unchanged";
    if (chatWebhookUrl !== undefined) {
      webhook = chatWebhookUrl === "" ? "removed" : "set";
      next.chatWebhookSealed = chatWebhookUrl === "" ? null : sealChatWebhook(chatWebhookUrl);
      next.chatWebhookHint = chatWebhookUrl === "" ? null : chatWebhookHint(chatWebhookUrl);
      next.chatWebhookSetAt = chatWebhookUrl === "" ? null : new Date().toISOString();
    }
    const changed = (Object.keys(choices) as (keyof typeof choices)[]).filter(
      (key) => JSON.stringify(before[key]) !== JSON.stringify(next[key]),
    );
    if (changed.length === 0 && webhook === "unchanged") return;
    const value = next as unknown as Prisma.InputJsonValue;
    await tx.setting.upsert({
      where: { key: NOTIFICATION_SETTING_KEY },
      create: { key: NOTIFICATION_SETTING_KEY, value, updatedBy: actor.staffId },
      update: { value, updatedBy: actor.staffId },
    });
    await recordAudit(tx, {
      action: "settings.notifications",
      actor,
      targetId: NOTIFICATION_SETTING_KEY,
      details: { changed, chatWebhook: webhook },
    });
  });
}
