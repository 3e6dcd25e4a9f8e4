import "server-only";
import type { Tx } from "@/lib/db/client";
import { countEvent } from "@/lib/telemetry/event-counts";

/**
 * Growing delay after repeated failures, kept in the database so every app instance sees the
 * same counters. Each step counts on keys of its own, per person and per source address: the
 * password on `email:` and `ip:`, the second factor on `second-factor:` and `second-factor-ip:`,
 * so one person's wrong codes never lock a colleague's password at the same office address.
 * After `freeFailures` failures within the window, each further failure locks the key for
 * 30 s × 2^(n − freeFailures), at most 15 minutes. A try while a key is locked is refused
 * unchecked and counts nothing, so the lock ends when it would have, whoever keeps trying.
 * A success clears the person's counter.
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
export const secondFactorKey = (staffId: string) => `second-factor:${staffId}`;
export const secondFactorAddressKey = (ip: string) => `second-factor-ip:${ip}`;

/** Namespace of the counters' advisory locks (two-key advisory locks; the second key is the counter's). */
const THROTTLE_LOCK = 72_613_021;

export function lockDuration(failures: number, freeFailures: number): number {
  if (failures < freeFailures) return 0;
  const exponent = Math.min(failures - freeFailures, 10);
  return Math.min(THROTTLE_POLICY.baseLockMs * 2 ** exponent, THROTTLE_POLICY.maxLockMs);
}

/**
 * Takes the keys' counters for the rest of the transaction and says until when any of them is
 * locked (null: none). Another attempt on one of these keys waits here until this transaction
 * has recorded its outcome, so the check, the verification and the count are one step: parallel
 * attempts cannot all pass a check made before any of them failed.
 */
export async function takeCounters(tx: Tx, keys: string[], now = new Date()): Promise<Date | null> {
  for (const key of [...new Set(keys)].sort())
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${THROTTLE_LOCK}::int, hashtext(${key}))`;
  const rows = await tx.signInThrottle.findMany({ where: { key: { in: keys }, lockedUntil: { gt: now } } });
  const times = rows.map((r) => r.lockedUntil!.getTime());
  return times.length ? new Date(Math.max(...times)) : null;
}

/** Counts a checked failure on a key taken by `takeCounters` (never a try refused by the lock). */
export async function recordFailure(tx: Tx, key: string, freeFailures: number, now = new Date()): Promise<void> {
  const existing = await tx.signInThrottle.findUnique({ where: { key } });
  const stale = !existing || now.getTime() - existing.lastFailureAt.getTime() > THROTTLE_POLICY.windowMs;
  const failures = stale ? 1 : existing.failures + 1;
  const lockMs = lockDuration(failures, freeFailures);
  const data = { failures, lastFailureAt: now, lockedUntil: lockMs ? new Date(now.getTime() + lockMs) : null };
  if (lockMs) countEvent("dgis_lockouts_total", { locked: lockedThing(key) });
  await tx.signInThrottle.upsert({ where: { key }, create: { key, ...data }, update: data });
}

/** What a throttle key locks, for telemetry: the key's kind, never the email or address in it. */
function lockedThing(key: string): string {
  const kind = key.slice(0, key.indexOf(":"));
  return LOCKED_THINGS[kind] ?? "other";
}
const LOCKED_THINGS: Record<string, string> = {
  email: "account",
  ip: "address",
  "second-factor": "second_factor",
  "second-factor-ip": "second_factor_address",
};

export async function clearFailures(tx: Tx, key: string): Promise<void> {
  await tx.signInThrottle.deleteMany({ where: { key } });
}
