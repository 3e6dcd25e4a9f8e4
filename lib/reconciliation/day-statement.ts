/**
 * One UTC day's wallet statement in one currency, reconciled exactly against
 * the upstream's balances (sandbox/README.md, "Statuses and transitions", "Withdrawals"):
 * the balance reconciled is the TOTAL the Issuing Service holds for the workspace
 * (available + reserved for orders + held for withdrawals). Reserving an order and holding
 * a withdrawal only move money between those parts, so the total moves by exactly:
 *   − orders captured (fulfilled)  + orders refunded  + credits (deposits, other rails)
 *   − withdrawals paid out (the hold leaves when paid).
 * opening + those = expected closing; the upstream's day-end total minus it is the difference
 * (positive: the upstream holds more than the app's records say).
 */
export type DayMovements = {
  capturedMinor: bigint;
  capturedCount: number;
  refundedMinor: bigint;
  refundedCount: number;
  creditedMinor: bigint;
  creditedCount: number;
  withdrawnMinor: bigint;
  withdrawnCount: number;
};

export type DayStatement = DayMovements & {
  status: "reconciled" | "difference" | "baseline";
  openingMinor: bigint | null;
  expectedClosingMinor: bigint | null;
  closingMinor: bigint;
  differenceMinor: bigint | null;
};

/** How the movements change the total balance. */
export function netMovement(m: DayMovements): bigint {
  return -m.capturedMinor + m.refundedMinor + m.creditedMinor - m.withdrawnMinor;
}

/**
 * `closingMinor` is the upstream's total at the day's end (see dayEndClosing). Without an
 * opening (no earlier day kept) the day is a baseline: it only opens the next one.
 */
export function buildStatement(input: {
  openingMinor: bigint | null;
  closingMinor: bigint;
  movements: DayMovements;
}): DayStatement {
  const { openingMinor, closingMinor, movements } = input;
  if (openingMinor === null)
    return { ...movements, status: "baseline", openingMinor, expectedClosingMinor: null, closingMinor, differenceMinor: null };
  const expected = openingMinor + netMovement(movements);
  const difference = closingMinor - expected;
  return {
    ...movements,
    status: difference === 0n ? "reconciled" : "difference",
    openingMinor,
    expectedClosingMinor: expected,
    closingMinor,
    differenceMinor: difference,
  };
}

/**
 * The total at the day's end from a read taken after it: the read minus the movements the
 * app knows of between the day's end and the read. A movement the app does not know of in
 * that gap lands in this day's difference; reading soon after midnight keeps the gap short.
 */
export function dayEndClosing(readTotalMinor: bigint, afterDay: DayMovements): bigint {
  return readTotalMinor - netMovement(afterDay);
}

/** `YYYY-MM-DD` → the UTC day's first instant and the next day's. */
export function dayBounds(day: string): { start: Date; end: Date } {
  const start = new Date(`${day}T00:00:00.000Z`);
  return { start, end: new Date(start.getTime() + 86_400_000) };
}

/** The UTC day (`YYYY-MM-DD`) `days` before the one holding `at`. */
export function utcDay(at: Date, daysBefore = 0): string {
  return new Date(at.getTime() - daysBefore * 86_400_000).toISOString().slice(0, 10);
}
