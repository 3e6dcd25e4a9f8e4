import "server-only";
import { db, type Tx } from "@/lib/db/client";
import type { FactorGap } from "./policy-rule";

/** Who has no second factor yet (roles only, and whether it is `staffId`), for the policy's counts. */
export async function readFactorGaps(staffId: string, tx: Tx = db()): Promise<FactorGap[]> {
  const people = await tx.staff.findMany({
    where: { active: true, secondFactors: { none: { confirmedAt: { not: null } } } },
    select: { id: true, roles: true },
  });
  return people.map((p) => ({ roles: p.roles, you: p.id === staffId }));
}
