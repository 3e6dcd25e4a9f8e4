import { createHash } from "node:crypto";

/**
 * The two kinds of idempotency keys, in one ledger and in the upstream's key space (one per
 * workspace and endpoint, whoever in this app sends them):
 *
 * - keys the app derives: `spend-<requestId>-<round>` (an approved order, lib/spend) and
 *   `bulk-<bulkOrderId>-<rowNumber>` (a bulk row, set at confirmation);
 * - keys a client gives (POST /api/orders `idempotencyKey`), kept and sent as
 *   `client:<staffId>:<key>` (`client-sha256:<staffId>:<hash>` when that would pass the
 *   contract's 128 characters).
 *
 * A client key therefore always starts with "client", which no derived key does: a buyer who
 * sends `spend-sr_X-1` gets an order of their own and cannot claim the approval's key (issue
 * 37: that blocked the approval), and one person's key never finds or blocks another's.
 */
export const MAX_KEY_LENGTH = 128;

export function clientOrderKey(staffId: string, key: string): string {
  const plain = `client:${staffId}:${key}`;
  if (plain.length <= MAX_KEY_LENGTH) return plain;
  return `client-sha256:${staffId}:${createHash("sha256").update(key).digest("base64url")}`;
}

/** The key an approved order is placed under in its approval round. */
export function spendApprovalKey(requestId: string, round: number): string {
  return `spend-${requestId}-${round}`;
}

/** The spend request an approved order's key was derived from (`spend-<id>-<round>`), else null. */
export function spendRequestOfKey(key: string): string | null {
  return /^spend-(.+)-\d+$/.exec(key)?.[1] ?? null;
}

/** Whether a key has the form of one the app derives (a client's key never keeps that form). */
export function isDerivedKey(key: string): boolean {
  return /^(spend|bulk)-/.test(key);
}
