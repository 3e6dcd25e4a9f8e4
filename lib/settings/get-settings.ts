import "server-only";
import { db } from "@/lib/db/client";
import { DEFAULT_SETTINGS, settingsSchema, type Settings } from "./schema";

/** Current thresholds: stored values that still validate, defaults for the rest. */
export async function getSettings(): Promise<Settings> {
  const rows = await db().setting.findMany({ where: { key: { in: Object.keys(DEFAULT_SETTINGS) } } });
  const settings: Settings = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    const key = row.key as keyof Settings;
    const parsed = settingsSchema.shape[key].safeParse(row.value);
    if (parsed.success) (settings as Record<string, unknown>)[key] = parsed.data;
  }
  return settings;
}
