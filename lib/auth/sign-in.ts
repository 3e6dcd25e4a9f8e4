import "server-only";
import { credentialsSchema } from "./credentials-schema";
import { db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { countEvent } from "@/lib/telemetry/event-counts";
import { dummyPasswordHash, verifyPassword } from "./password";
import { openSession, type OpenedSession } from "./open-session";
import { passwordMaySignIn } from "./sso/sso-only";
import { accountKey, addressKey, clearFailures, recordFailure, takeCounters, THROTTLE_POLICY } from "./throttle";

export type SignInResult =
  ({ ok: true } & OpenedSession) | { ok: false; reason: "invalid" | "locked" | "malformed" | "sso_only" };

/**
 * Checks credentials and opens a server-side session row. Every outcome is audited; the
 * caller shows one generic message whatever the reason, so nothing tells an attacker
 * which emails exist or whether a lock is in force. The one exception is a right password
 * while single sign-on is the only way in (lib/auth/sso/sso-only.ts): "sso_only".
 */
export async function signInWithPassword(
  input: unknown,
  from: { ip: string | null; userAgent: string | null },
): Promise<SignInResult> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) return { ok: false, reason: "malformed" };
  const { email, password } = parsed.data;
  const keys = [accountKey(email), ...(from.ip ? [addressKey(from.ip)] : [])];

  const staff = await db().staff.findUnique({ where: { email } });
  // Verified before the lock is looked at (the hash is slow, and is not done while holding the
  // counters), and whether or not the account exists, so that timing reveals neither.
  const passwordOk = await verifyPassword(staff?.passwordHash ?? (await dummyPasswordHash()), password);

  return db().$transaction(async (tx) => {
    const locked = await takeCounters(tx, keys);
    const ok = !!staff && staff.active && passwordOk && !locked;
    const actor = { staffId: staff?.id ?? null, email, ip: from.ip, userAgent: from.userAgent };
    if (!ok) {
      // A try during a lock is answered "locked" whatever the password, and counts nothing.
      if (!locked) {
        await recordFailure(tx, accountKey(email), THROTTLE_POLICY.account.freeFailures);
        if (from.ip) await recordFailure(tx, addressKey(from.ip), THROTTLE_POLICY.address.freeFailures);
      }
      const reason = locked ? "locked" : !staff ? "unknown_account" : !staff.active ? "deactivated" : "wrong_password";
      countEvent("dgis_sign_in_failures_total", { reason });
      await recordAudit(tx, {
        action: "auth.sign_in_failed",
        actor,
        targetId: staff?.id,
        details: { reason },
      });
      return { ok: false, reason: locked ? "locked" : "invalid" } as const;
    }
    // SSO-only mode: a right password is refused (except the break-glass account's) and said so,
    // since only someone who knows the password learns that; a wrong one stays generic above.
    if (!(await passwordMaySignIn(tx, email))) {
      await recordAudit(tx, { action: "auth.sign_in_failed", actor, targetId: staff.id, details: { reason: "sso_only" } });
      return { ok: false, reason: "sso_only" } as const;
    }
    await clearFailures(tx, accountKey(email));
    // The session may still owe a second factor or an enrolment (pendingStep): the password
    // is only the first step, and the audit row says so.
    const opened = await openSession(tx, staff, { ...from, firstFactor: "password" });
    await recordAudit(tx, { action: "auth.sign_in", actor, targetId: opened.sessionId });
    return { ok: true, ...opened } as const;
  });
}
