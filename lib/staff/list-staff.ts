import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { toStaffView, type StaffView } from "./staff-view";

export async function listStaff(actor: Actor): Promise<StaffView[]> {
  assertCan(actor, "staff.read");
  const staff = await db().staff.findMany({ orderBy: [{ active: "desc" }, { name: "asc" }] });
  return staff.map(toStaffView);
}
