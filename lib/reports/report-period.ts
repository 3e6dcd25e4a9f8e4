import { z } from "zod";
import { optionalIsoDaySchema } from "@/lib/validation";

/** What the spend report groups by; `category` stands for brand (the catalog names no brand). */
export const REPORT_GROUPS = ["product", "category", "country", "type", "currency", "buyer", "origin"] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];
export const REPORT_GRAINS = ["day", "week", "month"] as const;
export type ReportGrain = (typeof REPORT_GRAINS)[number];

/** The longest custom period: a year (and a day for a leap year) of days is still a readable chart. */
export const MAX_PERIOD_DAYS = 366;
const DAY_MS = 86_400_000;

export const reportFilterSchema = z
  .object({
    period: z.enum(["this-month", "last-month", "custom"], "Use this-month, last-month or custom.").default("this-month"),
    from: optionalIsoDaySchema,
    to: optionalIsoDaySchema,
    grain: z.enum(REPORT_GRAINS, "Use day, week or month.").default("day"),
    by: z.enum(REPORT_GROUPS, `Use one of ${REPORT_GROUPS.join(", ")}.`).default("product"),
  })
  .superRefine((f, ctx) => {
    if (f.period !== "custom") return;
    if (!f.from) ctx.addIssue({ code: "custom", path: ["from"], message: "Enter the first day of the period." });
    if (!f.to) ctx.addIssue({ code: "custom", path: ["to"], message: "Enter the last day of the period." });
    if (!f.from || !f.to) return;
    if (f.from > f.to) ctx.addIssue({ code: "custom", path: ["to"], message: "The last day is before the first." });
    else if (daysBetween(f.from, f.to) >= MAX_PERIOD_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: `Choose at most ${MAX_PERIOD_DAYS} days.` });
  });
export type ReportFilter = z.infer<typeof reportFilterSchema>;

/** A period of whole UTC days: [start, end) as instants, and its first and last day as written. */
export type ReportPeriod = { start: Date; end: Date; from: string; to: string };

/** The filter's period on the UTC calendar; "this month" runs to its last day, so the chart's axis is the month's. */
export function reportPeriod(filter: ReportFilter, now: Date): ReportPeriod {
  if (filter.period === "custom" && filter.from && filter.to) {
    const start = new Date(`${filter.from}T00:00:00Z`);
    return { start, end: new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS), from: filter.from, to: filter.to };
  }
  const shift = filter.period === "last-month" ? -1 : 0;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + shift, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + shift + 1, 1));
  return { start, end, from: isoDay(start), to: isoDay(new Date(end.getTime() - DAY_MS)) };
}

/** One bar of the chart, one batch of the CSV: [start, end), and how the axis names it. */
export type ReportBucket = { start: Date; end: Date; label: string };

/**
 * The period's buckets in order, each [start, end) and clipped to the period: a week starts on
 * Monday (ISO, as PostgreSQL's date_trunc), so the period's first and last weeks may be partial.
 */
export function reportBuckets(period: ReportPeriod, grain: ReportGrain): ReportBucket[] {
  const buckets: ReportBucket[] = [];
  for (let at = truncate(period.start, grain); at < period.end; at = next(at, grain)) {
    const start = at < period.start ? period.start : at;
    const after = next(at, grain);
    const end = after > period.end ? period.end : after;
    buckets.push({ start, end, label: bucketLabel(start, grain) });
  }
  return buckets;
}

/** The first instant of the bucket holding `at` (what date_trunc(grain, at) gives in SQL). */
export function truncate(at: Date, grain: ReportGrain): Date {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (grain === "day") return new Date(day);
  if (grain === "week") return new Date(day - ((at.getUTCDay() + 6) % 7) * DAY_MS);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

function next(at: Date, grain: ReportGrain): Date {
  if (grain === "day") return new Date(at.getTime() + DAY_MS);
  if (grain === "week") return new Date(at.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** A day or a week by its first day (a week's last is in the CSV), a month as YYYY-MM: short enough for a phone's axis. */
function bucketLabel(start: Date, grain: ReportGrain): string {
  return grain === "month" ? isoDay(start).slice(0, 7) : isoDay(start);
}

export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}
