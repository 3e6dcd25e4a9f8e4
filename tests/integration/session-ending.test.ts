import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { endSession, resolveSession, sessionIsAlive } from "@/lib/auth/staff-session";
import { updateStaff } from "@/lib/staff/update-staff";
import { issuePasswordResetLink } from "@/lib/staff/access-links/issue-password-reset-link";
import { completePasswordReset } from "@/lib/staff/access-links/complete-password-reset";
import { makeStaff, uniqueIp } from "../support/db";

const from = () => ({ ip: uniqueIp(), userAgent: "vitest" });

async function signedIn(roles: string[]) {
  const staff = await makeStaff(roles);
  const result = await signInWithPassword({ email: staff.email, password: staff.password }, from());
  if (!result.ok) throw new Error("sign-in failed");
  return { staff, sessionId: result.sessionId };
}

describe("sessions end on the server", () => {
  test("a live session names its person: id, email, name, every role, and when they last re-entered the password", async () => {
    const { staff, sessionId } = await signedIn(["buyer", "support"]);
    const live = await resolveSession(sessionId, { ip: "203.0.113.9", userAgent: "vitest" });
    expect(live?.actor).toEqual({
      staffId: staff.staffId,
      email: staff.email,
      name: expect.any(String),
      roles: ["buyer", "support"],
      ip: "203.0.113.9",
      userAgent: "vitest",
    });
    expect(live?.reauthAt).toBeInstanceOf(Date);
    expect(Math.abs(Date.now() - live!.reauthAt.getTime())).toBeLessThan(60_000);
  });

  test("sign-out ends the session for good", async () => {
    const { sessionId } = await signedIn(["viewer"]);
    await endSession(sessionId, "signed_out");
    expect(await resolveSession(sessionId, from())).toBeNull();
  });

  test("deactivation ends every session of that person at once", async () => {
    const admin = await makeStaff(["admin"]);
    const { staff, sessionId } = await signedIn(["buyer"]);
    const second = await signInWithPassword({ email: staff.email, password: staff.password }, from());
    await updateStaff(admin, staff.staffId, { active: false });
    expect(await resolveSession(sessionId, from())).toBeNull();
    expect(second.ok && (await resolveSession(second.sessionId, from()))).toBeNull();
    expect(await db().staffSession.count({ where: { staffId: staff.staffId, endedAt: null } })).toBe(0);
  });

  test("a password reset ends their sessions and the new password works", async () => {
    const admin = await makeStaff(["admin"]);
    const { staff, sessionId } = await signedIn(["finance"]);
    const { delivery } = await issuePasswordResetLink(admin, staff.staffId);
    expect(await resolveSession(sessionId, from())).toBeNull();
    if (delivery.via !== "shown_once") throw new Error("expected the link");
    const token = new URL(delivery.url).pathname.split("/").pop();
    await completePasswordReset({ token, password: "a brand new password" }, from());
    expect((await signInWithPassword({ email: staff.email, password: staff.password }, from())).ok).toBe(false);
    expect((await signInWithPassword({ email: staff.email, password: "a brand new password" }, from())).ok).toBe(true);
  });

  test("an idle session is refused and marked ended", async () => {
    const { sessionId } = await signedIn(["viewer"]);
    await db().staffSession.update({ where: { id: sessionId }, data: { lastSeenAt: new Date(Date.now() - 31 * 60_000) } });
    expect(await resolveSession(sessionId, from())).toBeNull();
    expect((await db().staffSession.findUnique({ where: { id: sessionId } }))?.endReason).toBe("idle_timeout");
  });

  test("a session past its absolute lifetime is refused even if active", async () => {
    const { sessionId } = await signedIn(["viewer"]);
    await db().staffSession.update({ where: { id: sessionId }, data: { createdAt: new Date(Date.now() - 13 * 3_600_000) } });
    expect(await resolveSession(sessionId, from())).toBeNull();
  });

  test("an unknown session id is refused", async () => {
    expect(await resolveSession("00000000-0000-0000-0000-000000000000", from())).toBeNull();
  });

  test("next-auth's check (sessionIsAlive) gives the same verdict and does not count as activity", async () => {
    const { sessionId } = await signedIn(["viewer"]);
    const lastSeenAt = new Date(Date.now() - 20 * 60_000);
    await db().staffSession.update({ where: { id: sessionId }, data: { lastSeenAt } });
    expect(await sessionIsAlive(sessionId)).toBe(true);
    expect((await db().staffSession.findUnique({ where: { id: sessionId } }))?.lastSeenAt).toEqual(lastSeenAt);
    await endSession(sessionId, "signed_out");
    expect(await sessionIsAlive(sessionId)).toBe(false);
    expect(await sessionIsAlive("00000000-0000-0000-0000-000000000000")).toBe(false);
  });
});
