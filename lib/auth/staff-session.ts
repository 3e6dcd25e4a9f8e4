import "server-only";
import { db, sqlQuery, type Tx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import type { Actor } from "./actor";
import type { SessionGuard } from "@/lib/upstream/session-slot";
import { judgeSession } from "./session-policy";
import type { PendingStep } from "./open-session";

/** lastSeenAt is written at most this often, to keep page loads free of needless writes. */
const TOUCH_EVERY_MS = 15_000;

export function sessionLimits() {
  const env = getEnv();
  return { idleMs: env.SESSION_IDLE_MINUTES * 60_000, maxMs: env.SESSION_MAX_HOURS * 3_600_000 };
}

/**
 * A live session. `pendingStep` is the sign-in step it still owes (a second factor, or
 * enrolling one); until it is null, pages send the person to that step and API routes refuse.
 */
export type LiveSession = { sessionId: string; actor: Actor; reauthAt: Date; pendingStep: PendingStep | null };

/**
 * Resolves the session row named by the cookie and decides whether it is alive
 * (not signed out, staff active, version current, not idle, not past its lifetime).
 * A dead session is marked ended so it can never come back.
 */
export async function resolveSession(
  sessionId: string,
  from: { ip: string | null; userAgent: string | null },
): Promise<LiveSession | null> {
  const session = await liveSessionRow(sessionId);
  if (!session) return null;
  const now = new Date();
  let lastSeenAt = session.lastSeenAt;
  if (now.getTime() - lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db().staffSession.update({ where: { id: sessionId }, data: { lastSeenAt: now } });
    lastSeenAt = now;
  }
  const { staff } = session;
  const live: LiveSession = {
    sessionId,
    reauthAt: session.reauthAt,
    pendingStep: session.pendingStep,
    actor: {
      staffId: staff.id,
      email: staff.email,
      name: staff.name,
      roles: staff.roles,
      ip: from.ip,
      userAgent: from.userAgent,
    },
  };
  if (!live.pendingStep) remember(sessionId, { live, createdAt: session.createdAt, lastSeenAt });
  return live;
}

/** Sessions this process found alive, by id, to start such a request from (at most a touch interval old). */
type Remembered = { live: LiveSession; createdAt: Date; lastSeenAt: Date };
const MAX_REMEMBERED = 2_000;
const globalForSessions = globalThis as unknown as { __aliveSessions?: Map<string, Remembered> };
const remembered = (globalForSessions.__aliveSessions ??= new Map());

function remember(sessionId: string, entry: Remembered): void {
  remembered.delete(sessionId);
  remembered.set(sessionId, entry);
  if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
}

/**
 * The session this process last found alive under this id, as a start that the database must
 * still confirm (with `guard`), or null: none, or one whose last-seen time is due to be written
 * again (resolveSession writes it), so that confirming it never needs a second statement.
 */
export function rememberedSession(
  sessionId: string,
  from: { ip: string | null; userAgent: string | null },
): { live: LiveSession; guard: SessionGuard } | null {
  const entry = remembered.get(sessionId);
  const now = Date.now();
  if (!entry || now - entry.lastSeenAt.getTime() > TOUCH_EVERY_MS) return null;
  const { idleMs, maxMs } = sessionLimits();
  const live = { ...entry.live, actor: { ...entry.live.actor, ip: from.ip, userAgent: from.userAgent } };
  const guard = {
    sessionId,
    staffId: live.actor.staffId,
    roles: live.actor.roles,
    createdAfter: new Date(now - maxMs),
    seenAfter: new Date(now - idleMs),
  };
  return { live, guard };
}

/**
 * The same verdict as resolveSession without counting as activity: for next-auth's own
 * `/api/auth/session`, which must not keep an idle session alive by being polled.
 */
export async function sessionIsAlive(sessionId: string): Promise<boolean> {
  return (await liveSessionRow(sessionId)) !== null;
}

/** The session row with the few fields of its person that the verdict and the actor need. */
type SessionRow = {
  createdAt: Date;
  lastSeenAt: Date;
  reauthAt: Date;
  endedAt: Date | null;
  sessionVersion: number;
  pendingStep: PendingStep | null;
  staff: { id: string; email: string; name: string; roles: string[]; active: boolean; sessionVersion: number };
};

/**
 * One statement (session joined to its person) rather than Prisma's `include`, which sends two,
 * and sent through node-postgres (`sqlQuery`, prepared once per connection) rather than
 * `$queryRaw`: this runs on every page view and every API call, so its round trip shows in
 * every response time.
 */
const SESSION_ROW = `
  SELECT s."createdAt", s."lastSeenAt", s."reauthAt", s."endedAt", s."sessionVersion", s."pendingStep",
         st."id" AS "staffId", st."email", st."name", st."roles"::text[] AS "roles", st."active",
         st."sessionVersion" AS "staffVersion"
  FROM "StaffSession" s JOIN "Staff" st ON st."id" = s."staffId"
  WHERE s."id" = $1`;

async function liveSessionRow(sessionId: string): Promise<SessionRow | null> {
  const [row] = await sqlQuery<
    Omit<SessionRow, "staff"> & {
      staffId: string;
      email: string;
      name: string;
      roles: string[];
      active: boolean;
      staffVersion: number;
    }
  >(SESSION_ROW, [sessionId]);
  if (!row) return null;
  const session: SessionRow = {
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    reauthAt: row.reauthAt,
    endedAt: row.endedAt,
    sessionVersion: row.sessionVersion,
    pendingStep: row.pendingStep,
    staff: {
      id: row.staffId,
      email: row.email,
      name: row.name,
      roles: row.roles,
      active: row.active,
      sessionVersion: row.staffVersion,
    },
  };
  const now = new Date();
  const verdict = judgeSession(session, sessionLimits(), now);
  if (verdict.alive) return session;
  if (!session.endedAt)
    await db().staffSession.update({ where: { id: sessionId }, data: { endedAt: now, endReason: verdict.reason } });
  return null;
}

export async function endSession(sessionId: string, reason: string): Promise<void> {
  await db().staffSession.updateMany({
    where: { id: sessionId, endedAt: null },
    data: { endedAt: new Date(), endReason: reason },
  });
}

/** Ends every session of a person at once (deactivation, password reset). */
export async function endAllSessions(tx: Tx, staffId: string, reason: string): Promise<void> {
  await tx.staff.update({ where: { id: staffId }, data: { sessionVersion: { increment: 1 } } });
  await tx.staffSession.updateMany({ where: { staffId, endedAt: null }, data: { endedAt: new Date(), endReason: reason } });
}
