import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { detailStaffIds } from "./read-details";
import type { AuditRow } from "./list-audit";

/**
 * The names of the people a page of audit entries is about (a staff target, the requester of a
 * decided request), so that the page reads "Ann Buyer" where the row holds a staff id.
 */
export async function auditStaffNames(actor: Actor, rows: readonly AuditRow[]): Promise<Map<string, string>> {
  assertCan(actor, "audit.read");
  const ids = new Set(
    rows.flatMap((row) => [
      ...(row.targetType === "staff" && row.targetId ? [row.targetId] : []),
      ...detailStaffIds(row.details),
    ]),
  );
  if (ids.size === 0) return new Map();
  const staff = await db().staff.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true } });
  return new Map(staff.map((s) => [s.id, s.name]));
}
