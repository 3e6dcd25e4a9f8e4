import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * A staff request started from a session its process found alive a moment ago (withStaff's
 * `sessionCheck: "upstream-slot"`) is confirmed by the database in its first budget slot for
 * that person, in the slot's own statement (./db-budget.ts): nothing is taken unless the
 * session is still alive, by the rules of lib/auth/session-policy.ts, with the same roles.
 * `state` says what the database answered, once it was asked.
 */
export type SessionGuard = { sessionId: string; staffId: string; roles: readonly string[]; createdAfter: Date; seenAfter: Date };
export type SessionConfirmation = { guard: SessionGuard; state: "pending" | "confirmed" | "refused" };

const current = new AsyncLocalStorage<SessionConfirmation>();

/** Runs `work` with its person's budget slots confirming `confirmation`'s session. */
export function confirmingSession<T>(confirmation: SessionConfirmation, work: () => Promise<T>): Promise<T> {
  return current.run(confirmation, work);
}

/** The request's session still to confirm, when a slot for `staffId` is taken now. */
export function sessionToConfirm(staffId: string): SessionConfirmation | null {
  const confirmation = current.getStore();
  return confirmation?.state === "pending" && confirmation.guard.staffId === staffId ? confirmation : null;
}

/**
 * The guard as a SQL condition whose parameters start at `$first` (`guardValues` gives them):
 * judgeSession's rules (not ended, person active, version current, within its lifetime, not
 * idle), no sign-in step owed, and the roles unchanged.
 */
export function liveSessionCondition(first: number): string {
  const [id, staffId, roles, createdAfter, seenAfter] = [0, 1, 2, 3, 4].map((i) => `$${first + i}`);
  return `EXISTS (SELECT 1 FROM "StaffSession" gs JOIN "Staff" gst ON gst."id" = gs."staffId"
    WHERE gs."id" = ${id}::text AND gs."staffId" = ${staffId}::text AND gs."endedAt" IS NULL AND gs."pendingStep" IS NULL
      AND gst."active" AND gs."sessionVersion" = gst."sessionVersion" AND gst."roles"::text[] = ${roles}::text[]
      AND gs."createdAt" >= ${createdAfter}::timestamptz AT TIME ZONE 'UTC'
      AND gs."lastSeenAt" >= ${seenAfter}::timestamptz AT TIME ZONE 'UTC')`;
}

export function guardValues(guard: SessionGuard): unknown[] {
  return [guard.sessionId, guard.staffId, [...guard.roles], guard.createdAfter.toISOString(), guard.seenAfter.toISOString()];
}
