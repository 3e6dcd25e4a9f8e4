/**
 * When a shared balance read (up to a minute old, ./read-balances.ts) may not hold the wallet's
 * latest movement, and when it is worth reading again. Pure, so the rule has unit-tested answers.
 *
 * A movement is in the app's records only after the Issuing Service acted (an order is mirrored
 * after its 202, a withdrawal linked after its answer, a credit after its webhook), but its time
 * can be a little earlier than that (a withdrawal's is when the send began): a read taken within
 * MOVE_SETTLE_MS after a movement's time is not trusted to include it.
 */
export const MOVE_SETTLE_MS = 2_000;
/** A read this young is not taken again, however busy the wallet (a bulk run moves it every second): the page says "updating". */
export const REREAD_FLOOR_MS = 3_000;

/** The read may predate the newest movement the app knows of. */
export function mayMissMovement(readAt: Date, movedAt: Date | null): boolean {
  return movedAt !== null && readAt.getTime() < movedAt.getTime() + MOVE_SETTLE_MS;
}

/** Read again now: the read may miss a movement, and it is not so young that reading again would only repeat it. */
export function shouldReread(readAt: Date, movedAt: Date | null, now: Date): boolean {
  return mayMissMovement(readAt, movedAt) && now.getTime() - readAt.getTime() >= REREAD_FLOOR_MS;
}
