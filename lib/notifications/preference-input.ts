import { z } from "zod";
import { singleLineText } from "@/lib/validation";
import { NOTIFICATION_KINDS } from "./kinds";
import { DIGEST_MODES, isTimeZone, parseTimeOfDay } from "./quiet-hours";

/** "22:00", or "" for none. */
const timeOfDay = singleLineText()
  .refine((v) => v === "" || parseTimeOfDay(v) !== null, "Use a time like 22:00, or leave empty.")
  .transform((v) => (v === "" ? null : parseTimeOfDay(v)));

const kinds = z.array(z.enum(NOTIFICATION_KINDS, { error: "Not a kind of notification." })).max(NOTIFICATION_KINDS.length);

/** What a person (or an admin, for the workspace's defaults) chooses for email. */
export const emailChoicesSchema = z
  .strictObject({
    emailKinds: kinds,
    digest: z.enum(DIGEST_MODES, { error: "Choose each, hourly or daily." }),
    quietStart: timeOfDay,
    quietEnd: timeOfDay,
    timeZone: singleLineText().max(64).refine(isTimeZone, "Not a time zone this server knows (e.g. Europe/Paris)."),
  })
  .superRefine((v, ctx) => {
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
  });

/** Only an https address (http on this machine, for a local receiver), at most 500 characters. */
const webhookUrl = singleLineText()
  .max(500, "Use at most 500 characters.")
  .refine((v) => {
    if (v === "") return true;
    try {
      const url = new URL(v);
      const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
      return (url.protocol === "https:" || (url.protocol === "http:" && loopback)) && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "Use the webhook's https:// address.");

/** The workspace's defaults, plus the chat channel: the URL only when it changes ("" removes it). */
export const workspaceChoicesSchema = z.intersection(
  emailChoicesSchema,
  z.object({ chatKinds: kinds, chatWebhookUrl: webhookUrl.optional() }),
);
