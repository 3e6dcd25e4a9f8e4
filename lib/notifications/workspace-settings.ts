import "server-only";
import { z } from "zod";
import type { Tx } from "@/lib/db/client";
import { NOTIFICATION_KINDS } from "./kinds";
import { DIGEST_MODES, isTimeZone, MINUTES_A_DAY, type QuietHours } from "./quiet-hours";
import type { EmailPreferences } from "./email-plan";

/** The `Setting` row that holds the workspace's notification defaults and its chat channel. */
export const NOTIFICATION_SETTING_KEY = "notifications";

const minuteOfDay = z
  .number()
  .int()
  .min(0)
  .max(MINUTES_A_DAY - 1)
  .nullable();

export const workspaceNotificationSchema = z.object({
  /** The kinds people get by email unless they chose otherwise. */
  emailKinds: z.array(z.enum(NOTIFICATION_KINDS)),
  digest: z.enum(DIGEST_MODES),
  quietStart: minuteOfDay,
  quietEnd: minuteOfDay,
  /** The workspace's zone: the default of each person's. */
  timeZone: z.string().refine(isTimeZone),
  /** The kinds posted to the chat webhook (one message per event). */
  chatKinds: z.array(z.enum(NOTIFICATION_KINDS)),
  /** The incoming-webhook URL, sealed (chat-webhook.ts); null: no chat. */
  chatWebhookSealed: z.string().nullable(),
  /** What the browser is shown of it: its host and last characters. */
  chatWebhookHint: z.string().nullable(),
  /** When it was set (ISO): failures before it were another webhook's (chat-health.ts). */
  chatWebhookSetAt: z.iso.datetime().nullable(),
});
export type WorkspaceNotificationSettings = z.infer<typeof workspaceNotificationSchema>;

export const DEFAULT_WORKSPACE_NOTIFICATIONS: WorkspaceNotificationSettings = {
  emailKinds: [...NOTIFICATION_KINDS],
  digest: "off",
  quietStart: null,
  quietEnd: null,
  timeZone: "UTC",
  chatKinds: [],
  chatWebhookSealed: null,
  chatWebhookHint: null,
  chatWebhookSetAt: null,
};

/** The stored settings, or the defaults where the row is missing or no longer fits. */
export async function readWorkspaceNotifications(tx: Tx): Promise<WorkspaceNotificationSettings> {
  const row = await tx.setting.findUnique({ where: { key: NOTIFICATION_SETTING_KEY } });
  if (!row) return DEFAULT_WORKSPACE_NOTIFICATIONS;
  const parsed = workspaceNotificationSchema.partial().safeParse(row.value);
  return parsed.success ? { ...DEFAULT_WORKSPACE_NOTIFICATIONS, ...parsed.data } : DEFAULT_WORKSPACE_NOTIFICATIONS;
}

export function quietHours(start: number | null, end: number | null): QuietHours {
  return start === null || end === null || start === end ? null : { start, end };
}

export function workspaceEmailPreferences(settings: WorkspaceNotificationSettings): EmailPreferences {
  return {
    emailKinds: settings.emailKinds,
    digest: settings.digest,
    quiet: quietHours(settings.quietStart, settings.quietEnd),
    timeZone: settings.timeZone,
  };
}
