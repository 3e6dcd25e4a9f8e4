import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { resolveSession } from "@/lib/auth/staff-session";
import { THROTTLE_POLICY } from "@/lib/auth/throttle";
import { makeStaff, uniqueIp } from "../support/db";

const from = () => ({ ip: uniqueIp(), userAgent: "vitest" });

describe("staff sign-in", () => {
  test("the right password opens a live session and is audited", async () => {
    const staff = await makeStaff(["buyer"]);
    const result = await signInWithPassword({ email: staff.email.toUpperCase(), password: staff.password }, from());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(await resolveSession(result.sessionId, from())).toMatchObject({ actor: { staffId: staff.staffId, roles: ["buyer"] } });
    const audit = await db().auditEvent.findFirst({ where: { action: "auth.sign_in", actorId: staff.staffId } });
    expect(audit?.ip).toBeTruthy();
  });

  test("a wrong password, an unknown email and a deactivated account all fail the same way", async () => {
    const staff = await makeStaff(["buyer"]);
    const gone = await makeStaff(["buyer"], { active: false });
    const outcomes = [
      await signInWithPassword({ email: staff.email, password: "wrong password!!" }, from()),
      await signInWithPassword({ email: "nobody@test.local", password: "whatever it is" }, from()),
      await signInWithPassword({ email: gone.email, password: gone.password }, from()),
    ];
    expect(outcomes).toEqual([
      { ok: false, reason: "invalid" },
      { ok: false, reason: "invalid" },
      { ok: false, reason: "invalid" },
    ]);
    expect(
      await db().auditEvent.count({
        where: { action: "auth.sign_in_failed", actorEmail: { in: [staff.email, gone.email, "nobody@test.local"] } },
      }),
    ).toBe(3);
  });

  test("malformed input is refused without touching the database", async () => {
    const before = await db().auditEvent.count();
    for (const input of [
      {},
      { email: "", password: "" },
      { email: "x".repeat(10_000) + "@a.b", password: "p" },
      { email: 42, password: ["a"] },
      null,
    ]) {
      expect(await signInWithPassword(input, from())).toEqual({ ok: false, reason: "malformed" });
    }
    expect(await db().auditEvent.count()).toBe(before);
  });

  test("an account is locked after repeated failures, even for the right password", async () => {
    const staff = await makeStaff(["buyer"]);
    for (let i = 0; i < THROTTLE_POLICY.account.freeFailures; i++) {
      await signInWithPassword({ email: staff.email, password: "wrong password!!" }, from());
    }
    const result = await signInWithPassword({ email: staff.email, password: staff.password }, from());
    expect(result).toEqual({ ok: false, reason: "locked" });
    const throttle = await db().signInThrottle.findUnique({ where: { key: `email:${staff.email}` } });
    expect(throttle?.lockedUntil?.getTime()).toBeGreaterThan(Date.now());
  });

  test("tries during an account's lock are refused and do not make it longer", async () => {
    const staff = await makeStaff(["buyer"]);
    for (let i = 0; i < THROTTLE_POLICY.account.freeFailures; i++)
      await signInWithPassword({ email: staff.email, password: "wrong password!!" }, from());
    const key = `email:${staff.email}`;
    const locked = await db().signInThrottle.findUniqueOrThrow({ where: { key } });
    expect(locked.lockedUntil!.getTime()).toBeGreaterThan(Date.now());

    // Anyone who knows the address keeps trying: the person's lock still ends when it would have.
    for (let i = 0; i < 10; i++)
      expect(await signInWithPassword({ email: staff.email, password: "wrong password!!" }, from())).toEqual({
        ok: false,
        reason: "locked",
      });
    const after = await db().signInThrottle.findUniqueOrThrow({ where: { key } });
    expect(after.lockedUntil).toEqual(locked.lockedUntil);
    expect(after.failures).toBe(locked.failures);
  });

  test("a source address is locked after many failures across accounts", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < THROTTLE_POLICY.address.freeFailures; i++) {
      await signInWithPassword({ email: `guess${i}@test.local`, password: "wrong password!!" }, { ip, userAgent: "bot" });
    }
    const staff = await makeStaff(["viewer"]);
    expect(await signInWithPassword({ email: staff.email, password: staff.password }, { ip, userAgent: "bot" })).toEqual({
      ok: false,
      reason: "locked",
    });
    // The same person from another address is not affected.
    expect((await signInWithPassword({ email: staff.email, password: staff.password }, from())).ok).toBe(true);
  });

  test("a success clears the account's failure count", async () => {
    const staff = await makeStaff(["buyer"]);
    for (let i = 0; i < THROTTLE_POLICY.account.freeFailures - 1; i++) {
      await signInWithPassword({ email: staff.email, password: "wrong password!!" }, from());
    }
    expect((await signInWithPassword({ email: staff.email, password: staff.password }, from())).ok).toBe(true);
    expect(await db().signInThrottle.findUnique({ where: { key: `email:${staff.email}` } })).toBeNull();
  });
});
