import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { mustHaveSecondFactor, readSecondFactorPolicy } from "@/lib/auth/second-factor/policy";
import { countFactors, toStaffView, type StaffView } from "./staff-view";

export async function listStaff(actor: Actor): Promise<StaffView[]> {
  assertCan(actor, "staff.read");
  const [staff, waiting, factors, policy] = await Promise.all([
    db().staff.findMany({ orderBy: [{ active: "desc" }, { name: "asc" }] }),
    db().spendRequest.groupBy({ by: ["requestedById"], where: { state: "awaiting" }, _count: { _all: true } }),
    db().secondFactor.groupBy({ by: ["staffId", "kind"], where: { confirmedAt: { not: null } }, _count: { _all: true } }),
    readSecondFactorPolicy(),
  ]);
  const waitingBy = new Map(waiting.map((w) => [w.requestedById, w._count._all]));
  const factorsOf = (staffId: string) => {
    const mine = factors.filter((f) => f.staffId === staffId);
    return countFactors((kind) => mine.find((f) => f.kind === kind)?._count._all ?? 0);
  };
  return staff.map((s) => toStaffView(s, waitingBy.get(s.id) ?? 0, factorsOf(s.id), mustHaveSecondFactor(s.roles, policy)));
}
