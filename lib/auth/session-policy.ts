/** Pure rules for whether a server-side session is still alive. */
export type SessionState = {
  createdAt: Date;
  lastSeenAt: Date;
  endedAt: Date | null;
  sessionVersion: number;
  staff: { active: boolean; sessionVersion: number };
};

export type SessionLimits = { idleMs: number; maxMs: number };

export type SessionVerdict =
  { alive: true } | { alive: false; reason: "ended" | "deactivated" | "revoked" | "idle_timeout" | "expired" };

export function judgeSession(session: SessionState, limits: SessionLimits, now = new Date()): SessionVerdict {
  if (session.endedAt) return { alive: false, reason: "ended" };
  if (!session.staff.active) return { alive: false, reason: "deactivated" };
  if (session.sessionVersion !== session.staff.sessionVersion) return { alive: false, reason: "revoked" };
  if (now.getTime() - session.createdAt.getTime() > limits.maxMs) return { alive: false, reason: "expired" };
  if (now.getTime() - session.lastSeenAt.getTime() > limits.idleMs) return { alive: false, reason: "idle_timeout" };
  return { alive: true };
}
