/**
 * The periods a limit counts over: the calendar day and month in UTC, whatever the server's
 * or the buyer's time zone. Pure, so the boundaries have unit-testable answers.
 */
export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export function utcMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}
