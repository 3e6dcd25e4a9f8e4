/**
 * Wall-clock rules of a person's email (pure, unit-tested): quiet hours and digest periods,
 * in the person's IANA time zone. Times of day are minutes after local midnight.
 */
export type QuietHours = { start: number; end: number } | null;

export const MINUTES_A_DAY = 24 * 60;

/** Minutes after local midnight and seconds into the minute of `at` in `timeZone`. */
export function localClock(at: Date, timeZone: string): { minute: number; second: number } {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hourCycle: "h23",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minute: part("hour") * 60 + part("minute"), second: part("second") };
}

/** The instant `minutes` later than the start of `at`'s local minute (a DST change inside the wait moves it by that hour). */
function atLocalMinuteStart(at: Date, timeZone: string, minutes: number): Date {
  const { second } = localClock(at, timeZone);
  const start = at.getTime() - second * 1000 - at.getUTCMilliseconds();
  return new Date(start + minutes * 60_000);
}

/** Whether `minute` (after local midnight) falls in the quiet window, which may span midnight (22:00–07:00). */
export function inQuietWindow(minute: number, quiet: QuietHours): boolean {
  if (!quiet || quiet.start === quiet.end) return false;
  return quiet.start < quiet.end ? minute >= quiet.start && minute < quiet.end : minute >= quiet.start || minute < quiet.end;
}

/** When email may go out: `at` itself outside quiet hours, else the quiet window's end. */
export function afterQuietHours(at: Date, quiet: QuietHours, timeZone: string): Date {
  const { minute } = localClock(at, timeZone);
  if (!quiet || !inQuietWindow(minute, quiet)) return at;
  return atLocalMinuteStart(at, timeZone, (quiet.end - minute + MINUTES_A_DAY) % MINUTES_A_DAY);
}

export type DigestMode = "off" | "hourly" | "daily";
export const DIGEST_MODES = ["off", "hourly", "daily"] as const satisfies readonly DigestMode[];

/** The end of the digest period `at` falls in: the next local hour, or the next local midnight. */
export function digestPeriodEnd(at: Date, mode: Exclude<DigestMode, "off">, timeZone: string): Date {
  const { minute } = localClock(at, timeZone);
  const wait = mode === "hourly" ? 60 - (minute % 60) : MINUTES_A_DAY - minute;
  return atLocalMinuteStart(at, timeZone, wait);
}

/** "22:00" → 1320; anything else → null. */
export function parseTimeOfDay(text: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export function formatTimeOfDay(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** Whether the runtime knows the IANA zone. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
