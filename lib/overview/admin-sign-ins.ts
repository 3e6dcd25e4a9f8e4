import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";

export type SignInOverview = {
  /** Accounts locked right now by failed sign-ins (lib/auth/throttle.ts), soonest unlock first. */
  locked: { email: string; until: string }[];
  /** Failed sign-ins audited in the last 24 hours (any account, known or not). */
  failuresLastDay: number;
};

/** Locked accounts and the last day's sign-in failures, for the admin home page. */
export async function getSignInOverview(actor: Actor, now = new Date()): Promise<SignInOverview> {
  assertCan(actor, "staff.read");
  const [locked, failuresLastDay] = await Promise.all([
    db().signInThrottle.findMany({
      where: { key: { startsWith: "email:" }, lockedUntil: { gt: now } },
      orderBy: { lockedUntil: "asc" },
      take: 20,
    }),
    db().auditEvent.count({ where: { action: "auth.sign_in_failed", at: { gte: new Date(now.getTime() - 86_400_000) } } }),
  ]);
  return {
    locked: locked.map((row) => ({ email: row.key.slice("email:".length), until: row.lockedUntil!.toISOString() })),
    failuresLastDay,
  };
}
