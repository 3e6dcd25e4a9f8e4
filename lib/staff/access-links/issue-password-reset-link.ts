import "server-only";
import { randomBytes } from "node:crypto";
import { db, Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { hashPassword } from "@/lib/auth/password";
import { endAllSessions } from "@/lib/auth/staff-session";
import { recordAudit } from "@/lib/audit/record";
import { assertPasswordAllowed } from "@/lib/auth/sso/sso-only";
import { parseInput } from "@/lib/validation";
import { staffIdSchema } from "../schemas";
import { deliverNewLink, type LinkDelivery } from "./deliver-link";
import { newLink } from "./link-rules";

/**
 * An admin gives another person a one-time link to set a new password. An admin resets a
 * password when it is forgotten or may be known to someone else; for the second, waiting until
 * the link is used would leave whoever knows it signed in. So at issue, in the same transaction:
 * every session of the person ends and the current password stops working (replaced by the hash
 * of a random value nobody knows, which costs a sign-in the same time as before). An older
 * reset link still waiting is revoked. Never one's own: one stolen admin session must not be
 * able to trade the account's password for one of its choosing. Never while SSO-only mode turns
 * passwords off for the person (all but the break-glass account): there is no password to set.
 */
export async function issuePasswordResetLink(
  actor: Actor,
  staffId: unknown,
): Promise<{ expiresAt: string; delivery: LinkDelivery }> {
  assertCan(actor, "staff.reset-password");
  const id = parseInput(staffIdSchema, staffId);
  if (id === actor.staffId) throw new AppError("own_password", "Another admin must reset your password.", { status: 403 });
  const unusable = await hashPassword(randomBytes(32).toString("base64url"));
  const now = new Date();
  const { token, tokenHash, expiresAt } = newLink("password_reset", now);
  const person = await db()
    .$transaction(async (tx) => {
      const staff = await tx.staff.findUnique({ where: { id } });
      if (!staff) throw new AppError("not_found", "No such staff member.");
      if (!staff.active)
        throw new AppError("conflict", "This person is deactivated: reactivate them first, then send a reset link.");
      await assertPasswordAllowed(
        tx,
        staff.email,
        (idp) => `Passwords are turned off: ${staff.name} signs in with ${idp}, so there is no password to reset.`,
      );
      await tx.accessLink.updateMany({
        where: { staffId: id, purpose: "password_reset", usedAt: null, revokedAt: null },
        data: { revokedAt: now },
      });
      await tx.accessLink.create({
        data: {
          purpose: "password_reset",
          tokenHash,
          email: staff.email,
          name: staff.name,
          roles: [],
          staffId: id,
          createdById: actor.staffId,
          createdAt: now,
          sentAt: now,
          expiresAt,
        },
      });
      await tx.staff.update({ where: { id }, data: { passwordHash: unusable } });
      await endAllSessions(tx, id, "password_reset_issued");
      await recordAudit(tx, {
        action: "staff.password_reset_link",
        actor,
        targetId: id,
        details: { email: staff.email, expiresAt: expiresAt.toISOString() },
      });
      return staff;
    })
    .catch((error: unknown) => {
      // The partial unique index: another admin's reset link for this person committed first.
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
        throw new AppError("conflict", "Another reset link for this person was just sent. Reload to see it.");
      throw error;
    });
  const delivery = await deliverNewLink(
    { purpose: "password_reset", email: person.email, name: person.name, expiresAt, from: actor.name },
    token,
  );
  return { expiresAt: expiresAt.toISOString(), delivery };
}
