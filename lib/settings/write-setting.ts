import "server-only";
import type { Prisma, Tx } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import type { AuditDetailsOf } from "@/lib/audit/actions";
import { recordAudit } from "@/lib/audit/record";

/** The audit actions that record a setting's change as its old and new value. */
type SettingAction = "settings.update" | "settings.second_factor_policy" | "settings.sso_only";

/**
 * Stores one workspace setting under its key, with who set it, and audits the change (its old
 * and new value) in the caller's transaction: every setting a person changes goes through here.
 */
export async function writeSetting<A extends SettingAction>(
  tx: Tx,
  actor: Actor,
  change: { action: A; key: string } & AuditDetailsOf<A>,
): Promise<void> {
  const { action, key, from, to } = change;
  const value = to as Prisma.InputJsonValue;
  await tx.setting.upsert({
    where: { key },
    create: { key, value, updatedBy: actor.staffId },
    update: { value, updatedBy: actor.staffId },
  });
  // One of three actions whose details are each { from, to }: the union is checked at the call site.
  await recordAudit(tx, { action, actor, targetId: key, details: { from, to } } as Parameters<typeof recordAudit>[1]);
}
