import "server-only";
import type { Tx } from "@/lib/db/client";

/**
 * Growing delay after repeated sign-in failures, per account and per source address,
 * kept in the database so every app instance sees the same counters.
 * After `freeFailures` failures within the window, each further failure locks the key for
 * 30 s × 2^(n − freeFailures), at most 15 minutes. A success clears the account's counter.
 */
export const THROTTLE_POLICY = {
  account: { freeFailures: 5 },
  address: { freeFailures: 20 },
  baseLockMs: 30_000,
  maxLockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
} as const;

export const accountKey = (email: string) => `email:${email.toLowerCase()}`;
export const addressKey = (ip: string) => `ip:${ip}`;

export function lockDuration(failures: number, freeFailures: number): number {
  if (failures < freeFailures) return 0;
  const exponent = Math.min(failures - freeFailures, 10);
  return Math.min(THROTTLE_POLICY.baseLockMs * 2 ** exponent, THROTTLE_POLICY.maxLockMs);
}

/** The latest instant until which any of the keys is locked, or null. */
export async function lockedUntil(tx: Tx, keys: string[], now = new Date()): Promise<Date | null> {
  const rows = await tx.signInThrottle.findMany({ where: { key: { in: keys }, lockedUntil: { gt: now } } });
  const times = rows.map((r) => r.lockedUntil!.getTime());
  return times.length ? new Date(Math.max(...times)) : null;
}

export async function recordFailure(tx: Tx, key: string, freeFailures: number, now = new Date()): Promise<void> {
  const existing = await tx.signInThrottle.findUnique({ where: { key } });
  const stale = !existing || now.getTime() - existing.lastFailureAt.getTime() > THROTTLE_POLICY.windowMs;
  const failures = stale ? 1 : existing.failures + 1;
  const lockMs = lockDuration(failures, freeFailures);
  const data = { failures, lastFailureAt: now, lockedUntil: lockMs ? new Date(now.getTime() + lockMs) : null };
  await tx.signInThrottle.upsert({ where: { key }, create: { key, ...data }, update: data });
}

export async function clearFailures(tx: Tx, key: string): Promise<void> {
  await tx.signInThrottle.deleteMany({ where: { key } });
}
