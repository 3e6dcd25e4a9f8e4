import type { Staff } from "@/lib/db/generated/client";

/** What the app shows of a staff member: never the password hash. */
export type StaffView = { id: string; email: string; name: string; roles: string[]; active: boolean; createdAt: string };

export function toStaffView(staff: Staff): StaffView {
  return {
    id: staff.id,
    email: staff.email,
    name: staff.name,
    roles: staff.roles,
    active: staff.active,
    createdAt: staff.createdAt.toISOString(),
  };
}
