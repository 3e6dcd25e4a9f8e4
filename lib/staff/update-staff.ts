import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { endAllSessions } from "@/lib/auth/staff-session";
import { recordAudit } from "@/lib/audit/record";
import { cancelBuyerSpendRequests } from "@/lib/spend/cancel-buyer-spend-requests";
import { parseInput } from "@/lib/validation";
import { staffIdSchema, updateStaffSchema } from "./schemas";
import { assertAnActiveAdminRemains, lockAdminChanges } from "./admin-guard";
import { toStaffView, type StaffView } from "./staff-view";

/**
 * Renames, changes roles, deactivates or reactivates a person. Deactivation ends their
 * sessions at once and cancels their spend requests still waiting for an approver, in the
 * same transaction; a change that would leave no active admin is refused.
 */
export async function updateStaff(actor: Actor, staffId: unknown, input: unknown): Promise<StaffView> {
  assertCan(actor, "staff.manage");
  const id = parseInput(staffIdSchema, staffId);
  const change = parseInput(updateStaffSchema, input);
  return db().$transaction(async (tx) => {
    await lockAdminChanges(tx);
    const before = await tx.staff.findUnique({ where: { id } });
    if (!before) throw new AppError("not_found", "No such staff member.");
    const after = await tx.staff.update({
      where: { id },
      data: { name: change.name, roles: change.roles, active: change.active },
    });
    await assertAnActiveAdminRemains(tx);

    if (change.roles && before.roles.join() !== after.roles.join()) {
      await recordAudit(tx, {
        action: "staff.update_roles",
        actor,
        targetId: id,
        details: { email: after.email, from: before.roles, to: after.roles },
      });
    }
    if (change.name !== undefined && change.name !== before.name) {
      await recordAudit(tx, {
        action: "staff.rename",
        actor,
        targetId: id,
        details: { email: after.email, from: before.name, to: after.name },
      });
    }
    if (change.active === false && before.active) {
      await endAllSessions(tx, id, "deactivated");
      // A reset link still waiting would let them set a password after reactivation: withdrawn too.
      await tx.accessLink.updateMany({
        where: { staffId: id, purpose: "password_reset", usedAt: null, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      const cancelledSpendRequests = await cancelBuyerSpendRequests(tx, actor, id);
      await recordAudit(tx, {
        action: "staff.deactivate",
        actor,
        targetId: id,
        details: { email: after.email, cancelledSpendRequests },
      });
    }
    if (change.active === true && !before.active) {
      await recordAudit(tx, {
        action: "staff.reactivate",
        actor,
        targetId: id,
        details: { email: after.email },
      });
    }
    return toStaffView(after, await tx.spendRequest.count({ where: { requestedById: id, state: "awaiting" } }));
  });
}
