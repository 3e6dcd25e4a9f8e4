import { z } from "zod";
import { singleLineText } from "@/lib/validation";
import { outgoingWebhookAllowHosts } from "@/lib/env";
import { webhookUrlProblem } from "@/lib/http/outgoing-address";
import { NOTIFICATION_KINDS } from "./kinds";
import { DIGEST_MODES, isTimeZone, parseTimeOfDay } from "./quiet-hours";

/** "22:00", or "" for none. */
const timeOfDay = singleLineText()
  .refine((v) => v === "" || parseTimeOfDay(v) !== null, "Use a time like 22:00, or leave empty.")
  .transform((v) => (v === "" ? null : parseTimeOfDay(v)));

const kinds = z.array(z.enum(NOTIFICATION_KINDS, { error: "Not a kind of notification." })).max(NOTIFICATION_KINDS.length);

/** What a person (or an admin, for the workspace's defaults) chooses for email. */
const emailChoiceFields = {
  emailKinds: kinds,
  digest: z.enum(DIGEST_MODES, { error: "Choose each, hourly or daily." }),
  quietStart: timeOfDay,
  quietEnd: timeOfDay,
  timeZone: singleLineText().max(64).refine(isTimeZone, "Not a time zone this server knows (e.g. Europe/Paris)."),
};

/** Quiet hours have both ends or neither, and do not end when they start. */
function checkQuietHours(v: { quietStart: number | null; quietEnd: number | null }, ctx: z.RefinementCtx) {
  if ((v.quietStart === null) !== (v.quietEnd === null))
    ctx.addIssue({
      code: "custom",
      path: [v.quietStart === null ? "quietStart" : "quietEnd"],
      message: "Give both ends of the quiet hours, or neither.",
    });
  else if (v.quietStart !== null && v.quietStart === v.quietEnd)
    ctx.addIssue({
      code: "custom",
      path: ["quietEnd"],
      message: "Quiet hours cannot end at the same time they start. Choose another end, or leave both empty.",
    });
}

export const emailChoicesSchema = z.strictObject(emailChoiceFields).superRefine(checkQuietHours);

/**
 * A public https address (lib/http/outgoing-address.ts; the deployment's OUTGOING_WEBHOOK_ALLOW_HOSTS
 * excepted), at most 500 characters. Its resolved address is checked again at each send.
 */
const webhookUrl = singleLineText()
  .max(500, "Use at most 500 characters.")
  .superRefine((value, ctx) => {
    const problem = value === "" ? null : webhookUrlProblem(value, outgoingWebhookAllowHosts());
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** The workspace's defaults, plus the chat channel: the URL only when it changes ("" removes it). */
export const workspaceChoicesSchema = z
  .strictObject({ ...emailChoiceFields, chatKinds: kinds, chatWebhookUrl: webhookUrl.optional() })
  .superRefine(checkQuietHours);
