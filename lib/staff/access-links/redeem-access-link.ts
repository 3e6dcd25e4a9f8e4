import "server-only";
import { db, type Tx } from "@/lib/db/client";
import type { AccessLink, Staff } from "@/lib/db/generated/client";
import { hashPassword } from "@/lib/auth/password";
import { assertStrongPassword } from "@/lib/auth/password-strength";
import { openSession, type OpenedSession } from "@/lib/auth/open-session";
import { recordAudit } from "@/lib/audit/record";
import { assertPasswordAllowed } from "@/lib/auth/sso/sso-only";
import { parseInput } from "@/lib/validation";
import { useAccessLinkSchema } from "../schemas";
import { hashLinkToken, type AccessLinkPurpose } from "./link-rules";
import { assertLinkLive, refusalNow, takeLink, type LinkVisitor } from "./take-access-link";

/**
 * One use of a one-time link with the password its holder chose: the input parsed, the link
 * checked live, refused while SSO-only mode turns passwords off for its address (the link stays
 * live), and the password judged (password-strength.ts, for the person the link names; a refused
 * password leaves the link unused) before it is hashed (argon2 is not spent on an anonymous
 * guess), then
 * in one transaction the link taken (once), `act` (the account or the new password), a session
 * opened through `openSession` with the link's purpose as its first factor, and the sign-in
 * audited. A link that lost between the check and the take is refused for what it is now.
 */
export async function redeemAccessLink(
  input: unknown,
  purpose: AccessLinkPurpose,
  visitor: LinkVisitor,
  act: (tx: Tx, link: AccessLink, passwordHash: string) => Promise<Staff>,
): Promise<OpenedSession> {
  const { token, password } = parseInput(useAccessLinkSchema, input);
  const tokenHash = hashLinkToken(token);
  const live = await assertLinkLive(tokenHash, purpose, visitor);
  await assertPasswordAllowed(db(), live.email, (idp) => `Passwords are turned off here: sign in with ${idp} instead.`);
  await assertStrongPassword(password, { email: live.email, name: live.name });
  const passwordHash = await hashPassword(password);
  const opened = await db().$transaction(async (tx) => {
    const link = await takeLink(tx, tokenHash, purpose);
    if (!link) return null;
    const staff = await act(tx, link, passwordHash);
    const session = await openSession(tx, staff, { ...visitor, firstFactor: purpose });
    await recordAudit(tx, {
      action: "auth.sign_in",
      actor: { staffId: staff.id, email: staff.email, ...visitor },
      targetId: session.sessionId,
    });
    return session;
  });
  if (!opened) throw await refusalNow(tokenHash, purpose);
  return opened;
}
