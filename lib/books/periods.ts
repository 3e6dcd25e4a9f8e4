import { z } from "zod";

/** A booking period: a calendar month in UTC, written `YYYY-MM`. */
export const periodSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use a month written as YYYY-MM.");

export function periodStart(period: string): Date {
  const [year, month] = period.split("-").map(Number);
  return new Date(Date.UTC(year!, month! - 1, 1));
}

/** The month after `period` (`2026-12` → `2027-01`). */
export function nextPeriod(period: string): string {
  const start = periodStart(period);
  return periodOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)));
}

export function previousPeriod(period: string): string {
  const start = periodStart(period);
  return periodOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1)));
}

/** The first instant after the month. */
export function periodEnd(period: string): Date {
  return periodStart(nextPeriod(period));
}

export function periodOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** "October 2026". */
export function periodLabel(period: string): string {
  return periodStart(period).toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
}
