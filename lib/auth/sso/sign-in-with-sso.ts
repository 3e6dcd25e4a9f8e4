import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { ssoConfig } from "@/lib/env";
import { hashPassword } from "../password";
import { openSession, type OpenedSession } from "../open-session";
import { takeInvitationFor } from "@/lib/staff/access-links/take-access-link";
import { amrOf, decideAccount, displayName, idpProvedSecondFactor, verifiedEmail, type SsoRefusal } from "./rules";

export type SsoSignInResult = ({ ok: true; created: boolean } & OpenedSession) | { ok: false; reason: SsoRefusal };

/**
 * The person an IdP vouched for (the verified ID token's claims), signed in: matched by
 * verified email to an active account, or given a new one when the email's domain is allowed
 * (SSO_ALLOWED_DOMAINS; no role, or SSO_DEFAULT_ROLE, for an admin to grant), else refused.
 * A live invitation of that email comes first: it is accepted here (taken once), the account
 * made with its name and roles whatever the domain, as the invitation's link would (the way in
 * while SSO-only mode turns passwords off).
 * Every outcome is audited in the transaction that acts on it. The session is opened by
 * openSession, which decides from the token's `amr` whether our second factor is still owed.
 */
export async function signInWithSso(
  claims: Record<string, unknown>,
  from: { ip: string | null; userAgent: string | null },
): Promise<SsoSignInResult> {
  const sso = ssoConfig();
  if (!sso) throw new Error("Single sign-on is not configured.");
  const amr = amrOf(claims.amr);
  const verified = verifiedEmail(claims);
  if (!verified.ok) {
    await db().$transaction((tx) =>
      recordAudit(tx, {
        action: "auth.sso_sign_in_refused",
        actor: { email: typeof claims.email === "string" ? claims.email.slice(0, 254) : null, ...from },
        details: { reason: verified.reason },
      }),
    );
    return { ok: false, reason: verified.reason };
  }
  const email = verified.email;
  // Hashed before the transaction (about 80 ms): a password nobody knows, so that an account
  // created here signs in by SSO only until an admin sets one.
  const unusablePassword = await hashPassword(randomBytes(32).toString("base64url"));

  return db().$transaction(async (tx) => {
    const existing = await tx.staff.findUnique({ where: { email } });
    const invitation = existing ? null : await takeInvitationFor(tx, email);
    const decision = invitation ? ({ act: "create" } as const) : decideAccount(existing, email, sso.allowedDomains);
    const actor = { staffId: existing?.id ?? null, email, ...from };
    if (decision.act === "refuse") {
      await recordAudit(tx, {
        action: "auth.sso_sign_in_refused",
        actor,
        targetId: existing?.id,
        details: { reason: decision.reason },
      });
      return { ok: false, reason: decision.reason } as const;
    }
    const staff =
      existing ??
      (await tx.staff.create({
        data: {
          email,
          name: invitation?.name ?? displayName(claims, email),
          roles: invitation?.roles ?? (sso.defaultRole ? [sso.defaultRole] : []),
          passwordHash: unusablePassword,
        },
      }));
    if (invitation) {
      await tx.accessLink.update({ where: { id: invitation.id }, data: { staffId: staff.id } });
      await recordAudit(tx, {
        action: "staff.invitation_accepted",
        actor: { ...actor, staffId: staff.id },
        targetId: staff.id,
        details: { email, roles: staff.roles, invitationId: invitation.id },
      });
    } else if (!existing) {
      await recordAudit(tx, {
        action: "staff.created_by_sso",
        actor: { ...actor, staffId: staff.id },
        targetId: staff.id,
        details: { email, roles: staff.roles },
      });
    }
    const opened = await openSession(tx, staff, { ...from, firstFactor: "sso", amr });
    await recordAudit(tx, {
      action: "auth.sso_sign_in",
      actor: { ...actor, staffId: staff.id },
      targetId: opened.sessionId,
      details: { amr, idpSecondFactor: idpProvedSecondFactor(amr) },
    });
    return { ok: true, ...opened, created: !existing } as const;
  });
}
