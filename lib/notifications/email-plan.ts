import { afterQuietHours, digestPeriodEnd, type DigestMode, type QuietHours } from "./quiet-hours";

/** What governs one person's email: theirs if they saved any, else the workspace's defaults. */
export type EmailPreferences = {
  emailKinds: readonly string[];
  digest: DigestMode;
  quiet: QuietHours;
  timeZone: string;
};

/**
 * Whether and when an event's email goes to a person (pure): none for a kind they do not take
 * by email; held for the digest that closes the period; else due now, or when their quiet hours
 * end (the in-app notification appears at once either way).
 */
export function planEmail(
  now: Date,
  kind: string,
  preferences: EmailPreferences,
): { status: "pending" | "held"; dueAt: Date } | null {
  if (!preferences.emailKinds.includes(kind)) return null;
  if (preferences.digest !== "off")
    return { status: "held", dueAt: digestPeriodEnd(now, preferences.digest, preferences.timeZone) };
  return { status: "pending", dueAt: afterQuietHours(now, preferences.quiet, preferences.timeZone) };
}
