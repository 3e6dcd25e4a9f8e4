import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { formatTimeOfDay } from "./quiet-hours";
import { readWorkspaceNotifications } from "./workspace-settings";

/** Email choices as a form shows them: times as "22:00" or "". */
export type EmailChoicesView = {
  emailKinds: string[];
  digest: "off" | "hourly" | "daily";
  quietStart: string;
  quietEnd: string;
  timeZone: string;
};

const time = (minutes: number | null) => (minutes === null ? "" : formatTimeOfDay(minutes));

/** A person's own choices, or the workspace's defaults when they have not chosen (`own: false`). */
export async function readMyChoices(actor: Actor): Promise<{ choices: EmailChoicesView; own: boolean }> {
  const [mine, workspace] = await Promise.all([
    db().notificationPreference.findUnique({ where: { staffId: actor.staffId } }),
    readWorkspaceNotifications(db()),
  ]);
  const source = mine ?? workspace;
  return {
    own: mine !== null,
    choices: {
      emailKinds: [...source.emailKinds],
      digest: source.digest === "hourly" || source.digest === "daily" ? source.digest : "off",
      quietStart: time(source.quietStart),
      quietEnd: time(source.quietEnd),
      timeZone: source.timeZone,
    },
  };
}

/** The workspace's choices for Settings: the webhook only as its hint, never the URL. */
export async function readWorkspaceChoices(
  actor: Actor,
): Promise<EmailChoicesView & { chatKinds: string[]; chatWebhookHint: string | null }> {
  assertCan(actor, "settings.read");
  const workspace = await readWorkspaceNotifications(db());
  return {
    emailKinds: [...workspace.emailKinds],
    digest: workspace.digest,
    quietStart: time(workspace.quietStart),
    quietEnd: time(workspace.quietEnd),
    timeZone: workspace.timeZone,
    chatKinds: [...workspace.chatKinds],
    chatWebhookHint: workspace.chatWebhookSealed ? workspace.chatWebhookHint : null,
  };
}
