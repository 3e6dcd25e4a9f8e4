import "server-only";
import { db } from "@/lib/db/client";
import { writeSetting } from "./write-setting";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { currencyDecimalsProblem } from "@/lib/money";
import { parseInput } from "@/lib/validation";
import { settingsSchema, type Settings } from "./schema";
import { readSettings } from "./get-settings";

/**
 * A low-balance threshold has at most its currency's decimals (1000.50 JPY is refused). Checked
 * on write only: a value stored before this check must not make a read fall back to the defaults.
 */
const patchSchema = settingsSchema
  .partial()
  .strict()
  .superRefine((v, ctx) => {
    for (const [currency, amount] of Object.entries(v.lowBalance ?? {})) {
      const message = currencyDecimalsProblem(amount, currency);
      if (message) ctx.addIssue({ code: "custom", message, path: ["lowBalance", currency] });
    }
  });

/** Admins change thresholds; each changed key is audited with its old and new value. */
export async function updateSettings(actor: Actor, input: unknown): Promise<Settings> {
  assertCan(actor, "settings.manage");
  const patch = parseInput(patchSchema, input);
  const before = await readSettings();
  await db().$transaction(async (tx) => {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined || JSON.stringify(value) === JSON.stringify(before[key as keyof Settings])) continue;
      await writeSetting(tx, actor, { action: "settings.update", key, from: before[key as keyof Settings], to: value });
    }
  });
  return readSettings();
}
