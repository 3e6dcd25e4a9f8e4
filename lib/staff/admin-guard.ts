import "server-only";
import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

const ADMIN_CHANGE_LOCK = 72_613_002;

/**
 * Serializes every change that could remove an active admin, then checks that at least
 * one remains. Call inside the transaction, after the change, before commit.
 */
export async function lockAdminChanges(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ADMIN_CHANGE_LOCK}::bigint)`;
}

export async function assertAnActiveAdminRemains(tx: Tx): Promise<void> {
  const admins = await tx.staff.count({ where: { active: true, roles: { has: "admin" } } });
  if (admins < 1)
    throw new AppError("last_admin", "At least one active admin must remain. Give another person the admin role first.");
}
