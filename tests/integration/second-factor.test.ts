import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { resolveSession } from "@/lib/auth/staff-session";
import { proveSecondFactor } from "@/lib/auth/second-factor/prove-second-factor";
import { confirmTotpEnrolment, startTotpEnrolment } from "@/lib/auth/second-factor/methods/totp";
import { totpCodeAt, TOTP_PERIOD_S } from "@/lib/auth/second-factor/totp";
import { updateSecondFactorPolicy } from "@/lib/auth/second-factor/update-policy";
import { resetSecondFactor } from "@/lib/staff/reset-second-factor";
import { assertFreshProof } from "@/lib/auth/step-up";
import { stepUpWindowMs } from "@/lib/auth/second-factor/keys";
import { THROTTLE_POLICY } from "@/lib/auth/throttle";
import { makeStaff, uniqueIp } from "../support/db";

const from = () => ({ ip: uniqueIp(), userAgent: "vitest" });

async function sessionOf(staff: { email: string; password: string }, ip = uniqueIp()) {
  const result = await signInWithPassword({ email: staff.email, password: staff.password }, { ip, userAgent: "vitest" });
  if (!result.ok) throw new Error("sign-in failed");
  return (await resolveSession(result.sessionId, { ip, userAgent: "vitest" }))!;
}

/** A person with a confirmed authenticator app (enrolled through the app's own functions); returns its key. */
async function withAuthenticator(roles: string[]) {
  const staff = await makeStaff(roles);
  const session = await sessionOf(staff);
  const started = await startTotpEnrolment(session, {});
  // The first code is spent by the enrolment: sign-ins in these tests use later steps.
  const enrolled = await confirmTotpEnrolment(session, {
    factorId: started.factorId,
    code: totpCodeAt(started.secret, Date.now() - TOTP_PERIOD_S * 1000),
  });
  return { staff, secret: started.secret, recoveryCodes: enrolled.recoveryCodes! };
}

const audits = (staffId: string, action: string) => db().auditEvent.findMany({ where: { actorId: staffId, action } });
const failureReasons = async (staffId: string) =>
  (await audits(staffId, "auth.second_factor_failed")).map((a) => (a.details as { reason: string }).reason);

/** Six-digit codes that are none of the three the app accepts now (this step and one either side). */
function wrongCodes(secret: string, count: number): string[] {
  const now = Date.now();
  const accepted = new Set([-1, 0, 1].map((d) => totpCodeAt(secret, now + d * TOTP_PERIOD_S * 1000)));
  const codes: string[] = [];
  for (let n = 100_000; codes.length < count; n += 7919) if (!accepted.has(String(n))) codes.push(String(n));
  return codes;
}

describe("second factor", () => {
  test("the secret is stored sealed, and enrolment issues ten recovery codes stored only as hashes", async () => {
    const { staff, secret, recoveryCodes } = await withAuthenticator(["viewer"]);
    const row = await db().secondFactor.findFirstOrThrow({ where: { staffId: staff.staffId } });
    expect(row.totpSecret).not.toContain(secret);
    expect(recoveryCodes).toHaveLength(10);
    const stored = await db().recoveryCode.findMany({ where: { staffId: staff.staffId } });
    expect(stored).toHaveLength(10);
    for (const code of recoveryCodes) expect(stored.some((s) => s.codeHash.includes(code))).toBe(false);
    expect(await audits(staff.staffId, "second_factor.enrol")).toHaveLength(1);
  });

  test("a person with a factor owes it after the password; a right code completes the session, the same code again is refused", async () => {
    const { staff, secret } = await withAuthenticator(["viewer"]);
    const session = await sessionOf(staff);
    expect(session.pendingStep).toBe("second_factor");
    const code = totpCodeAt(secret, Date.now());
    await expect(proveSecondFactor(session, { method: "totp", code })).resolves.toEqual({ method: "totp" });
    expect((await resolveSession(session.sessionId, from()))!.pendingStep).toBeNull();

    const second = await sessionOf(staff);
    await expect(proveSecondFactor(second, { method: "totp", code })).rejects.toMatchObject({ code: "second_factor_failed" });
    const failed = await audits(staff.staffId, "auth.second_factor_failed");
    expect(failed.map((a) => a.details)).toContainEqual({ method: "totp", reason: "reused", purpose: "sign_in" });
    expect((await resolveSession(second.sessionId, from()))!.pendingStep).toBe("second_factor");
  });

  test("wrong codes are counted: past five, even the right code is refused until the lock ends", async () => {
    const { staff, secret } = await withAuthenticator(["viewer"]);
    const session = await sessionOf(staff);
    for (let i = 0; i < 5; i++)
      await expect(proveSecondFactor(session, { method: "totp", code: "000000" })).rejects.toMatchObject({
        code: "second_factor_failed",
      });
    await expect(proveSecondFactor(session, { method: "totp", code: totpCodeAt(secret, Date.now()) })).rejects.toMatchObject({
      code: "second_factor_failed",
    });
    const reasons = await failureReasons(staff.staffId);
    expect(reasons.filter((r) => r === "wrong")).toHaveLength(5);
    expect(reasons).toContain("locked");
    // Lifting the lock (as time would) lets the right code through.
    await db().signInThrottle.updateMany({ where: { key: `second-factor:${staff.staffId}` }, data: { lockedUntil: null } });
    await expect(proveSecondFactor(session, { method: "totp", code: totpCodeAt(secret, Date.now()) })).resolves.toBeTruthy();
  });

  test("forty proofs at once from ten addresses check at most five wrong codes; the lock then refuses the right one", async () => {
    const { staff, secret } = await withAuthenticator(["viewer"]);
    const signedIn = await sessionOf(staff);
    const addresses = Array.from({ length: 10 }, uniqueIp);
    const sessions = await Promise.all(
      addresses.map(async (ip) => (await resolveSession(signedIn.sessionId, { ip, userAgent: "vitest" }))!),
    );
    const right = totpCodeAt(secret, Date.now());
    const codes = [...wrongCodes(secret, 39), right]; // the right code last, as a guesser's would come

    const outcomes = await Promise.allSettled(
      codes.map((code, i) => proveSecondFactor(sessions[i % sessions.length]!, { method: "totp", code })),
    );

    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(0);
    const reasons = await failureReasons(staff.staffId);
    expect(reasons.filter((r) => r === "wrong").length).toBeLessThanOrEqual(THROTTLE_POLICY.account.freeFailures);
    expect(reasons.filter((r) => r === "locked").length).toBeGreaterThanOrEqual(
      codes.length - THROTTLE_POLICY.account.freeFailures,
    );
    expect((await resolveSession(signedIn.sessionId, from()))!.pendingStep).toBe("second_factor");
    // The right code after the burst meets the lock too.
    await expect(proveSecondFactor(sessions[0]!, { method: "totp", code: right })).rejects.toMatchObject({
      code: "second_factor_failed",
    });
    expect((await failureReasons(staff.staffId)).at(-1)).toBe("locked");
  });

  test("tries during a lock are refused unchecked and do not make it longer", async () => {
    const { staff, secret } = await withAuthenticator(["viewer"]);
    const session = await sessionOf(staff);
    const [first, ...others] = wrongCodes(secret, 15);
    for (const code of others.slice(0, 4)) await proveSecondFactor(session, { method: "totp", code }).catch(() => {});
    await proveSecondFactor(session, { method: "totp", code: first! }).catch(() => {});
    const key = `second-factor:${staff.staffId}`;
    const locked = await db().signInThrottle.findUniqueOrThrow({ where: { key } });
    expect(locked.lockedUntil!.getTime()).toBeGreaterThan(Date.now());

    // Anyone holding the password keeps trying: the lock ends when it would have.
    for (const code of others.slice(4)) await proveSecondFactor(session, { method: "totp", code }).catch(() => {});
    const after = await db().signInThrottle.findUniqueOrThrow({ where: { key } });
    expect(after.lockedUntil).toEqual(locked.lockedUntil);
    expect(after.failures).toBe(locked.failures);
    expect((await failureReasons(staff.staffId)).filter((r) => r === "wrong")).toHaveLength(5);
  });

  test("one person's wrong codes lock neither the passwords nor the codes of others at the same address", async () => {
    const office = uniqueIp();
    const { staff, secret } = await withAuthenticator(["viewer"]);
    const colleague = await withAuthenticator(["viewer"]);
    const session = await sessionOf(staff, office);
    for (const code of wrongCodes(secret, THROTTLE_POLICY.address.freeFailures + 5))
      await expect(proveSecondFactor(session, { method: "totp", code })).rejects.toMatchObject({ code: "second_factor_failed" });

    const result = await signInWithPassword(
      { email: colleague.staff.email, password: colleague.staff.password },
      { ip: office, userAgent: "vitest" },
    );
    expect(result.ok).toBe(true);
    const theirs = (await resolveSession((result as { sessionId: string }).sessionId, { ip: office, userAgent: "vitest" }))!;
    await expect(proveSecondFactor(theirs, { method: "totp", code: totpCodeAt(colleague.secret, Date.now()) })).resolves.toEqual({
      method: "totp",
    });
  });

  test("adding an authenticator app needs a fresh proof, and confirming it does not renew the proof", async () => {
    const staff = await makeStaff(["viewer"]);
    const signedIn = await sessionOf(staff);
    const started = await startTotpEnrolment(signedIn, {});
    const stale = new Date(Date.now() - 2 * stepUpWindowMs());
    await db().staffSession.update({ where: { id: signedIn.sessionId }, data: { reauthAt: stale } });
    const later = (await resolveSession(signedIn.sessionId, from()))!;
    const confirmation = { factorId: started.factorId, code: totpCodeAt(started.secret, Date.now()) };

    await expect(confirmTotpEnrolment(later, confirmation)).rejects.toMatchObject({ code: "step_up_required" });
    expect(await db().secondFactor.count({ where: { staffId: staff.staffId, confirmedAt: { not: null } } })).toBe(0);
    await expect(assertFreshProof(later)).rejects.toMatchObject({ code: "step_up_required" });

    // Proven again (no factor yet: the password), the app is added and the proof keeps its age.
    await proveSecondFactor(later, { method: "password", password: staff.password });
    const proven = (await resolveSession(signedIn.sessionId, from()))!;
    await expect(confirmTotpEnrolment(proven, confirmation)).resolves.toMatchObject({ factorId: started.factorId });
    expect((await resolveSession(signedIn.sessionId, from()))!.reauthAt).toEqual(proven.reauthAt);
  });

  test("a recovery code works once", async () => {
    const { staff, recoveryCodes } = await withAuthenticator(["viewer"]);
    const code = recoveryCodes[3]!.toUpperCase();
    const first = await sessionOf(staff);
    await expect(proveSecondFactor(first, { method: "recovery", code })).resolves.toEqual({
      method: "recovery",
      recoveryCodesLeft: 9,
    });
    const second = await sessionOf(staff);
    await expect(proveSecondFactor(second, { method: "recovery", code })).rejects.toMatchObject({ code: "second_factor_failed" });
    expect(await audits(staff.staffId, "auth.recovery_code_used")).toHaveLength(1);
  });

  test("with the policy on, a required role without a factor owes an enrolment; a factor added clears it", async () => {
    const admin = await makeStaff(["admin"]);
    await updateSecondFactorPolicy(admin, { roles: ["finance"] });
    try {
      const finance = await makeStaff(["finance"]);
      const viewer = await makeStaff(["viewer"]);
      const session = await sessionOf(finance);
      expect(session.pendingStep).toBe("enrolment");
      expect((await sessionOf(viewer)).pendingStep).toBeNull();
      const started = await startTotpEnrolment(session, {});
      await confirmTotpEnrolment(session, { factorId: started.factorId, code: totpCodeAt(started.secret, Date.now()) });
      expect((await resolveSession(session.sessionId, from()))!.pendingStep).toBeNull();
    } finally {
      await updateSecondFactorPolicy(admin, { roles: [] });
    }
  });

  test("an admin resets another person's factor, which ends their sessions; never their own", async () => {
    const admin = await makeStaff(["admin"]);
    const { staff } = await withAuthenticator(["support"]);
    const session = await sessionOf(staff);
    await expect(resetSecondFactor(admin, admin.staffId)).rejects.toMatchObject({ code: "own_second_factor" });
    await expect(resetSecondFactor(admin, staff.staffId)).resolves.toEqual({ removed: 1 });
    expect(await resolveSession(session.sessionId, from())).toBeNull();
    expect(await db().recoveryCode.count({ where: { staffId: staff.staffId } })).toBe(0);
    const reset = await db().auditEvent.findFirstOrThrow({ where: { action: "second_factor.reset", targetId: staff.staffId } });
    expect(reset.actorId).toBe(admin.staffId);
  });
});
