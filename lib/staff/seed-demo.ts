import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import { ROLES, ROLE_LABELS } from "@/lib/auth/permissions";
import { createStaffAsOperator } from "./create-staff";

/**
 * Local mode only: one demo account per role, `<role>@demo.local`, all with one password
 * (DEMO_PASSWORD, or a generated one returned so the launcher can print it once).
 * Does nothing when demo accounts already exist.
 */
export async function seedDemoStaff(demoPassword: string | undefined): Promise<{ created: boolean; password?: string }> {
  const existing = await db().staff.count({ where: { email: { endsWith: "@demo.local" } } });
  if (existing > 0) return { created: false };
  const password = demoPassword ?? randomBytes(12).toString("base64url");
  for (const role of ROLES) {
    await createStaffAsOperator(
      { email: `${role}@demo.local`, name: `Demo ${ROLE_LABELS[role]}`, roles: [role], password },
      "demo-seed",
    );
  }
  return { created: true, password: demoPassword ? undefined : password };
}
