import { describe, expect, test } from "vitest";
import { judgeSession, type SessionState } from "@/lib/auth/session-policy";

const limits = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 };
const now = new Date("2026-11-22T12:00:00Z");
const base: SessionState = {
  createdAt: new Date("2026-11-22T11:00:00Z"),
  lastSeenAt: new Date("2026-11-22T11:59:00Z"),
  endedAt: null,
  sessionVersion: 3,
  staff: { active: true, sessionVersion: 3 },
};

describe("session lifetime rules", () => {
  test("a recent session of an active person is alive", () => {
    expect(judgeSession(base, limits, now)).toEqual({ alive: true });
  });

  test("thirty minutes of inactivity end it", () => {
    expect(judgeSession({ ...base, lastSeenAt: new Date("2026-11-22T11:29:59Z") }, limits, now)).toEqual({
      alive: false,
      reason: "idle_timeout",
    });
  });

  test("the absolute lifetime ends it even when active", () => {
    expect(judgeSession({ ...base, createdAt: new Date("2026-11-21T23:59:00Z") }, limits, now)).toEqual({
      alive: false,
      reason: "expired",
    });
  });

  test("signing out ends it", () => {
    expect(judgeSession({ ...base, endedAt: new Date("2026-11-22T11:59:30Z") }, limits, now)).toEqual({
      alive: false,
      reason: "ended",
    });
  });

  test("deactivation ends it", () => {
    expect(judgeSession({ ...base, staff: { active: false, sessionVersion: 3 } }, limits, now)).toEqual({
      alive: false,
      reason: "deactivated",
    });
  });

  test("a password reset (new session version) ends it", () => {
    expect(judgeSession({ ...base, staff: { active: true, sessionVersion: 4 } }, limits, now)).toEqual({
      alive: false,
      reason: "revoked",
    });
  });
});
