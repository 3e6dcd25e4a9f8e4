import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import { ROLES, ROLE_LABELS } from "@/lib/auth/permissions";
import { createStaffAsOperator } from "./create-staff";

/**
 * Local mode only: one demo account per role, `<role>@demo.local`, all with one password
 * (DEMO_PASSWORD, or a generated one returned so the launcher can print it once). Either must
 * pass the password rule (lib/auth/password-strength.ts): a weak DEMO_PASSWORD stops the seed.
 * Does nothing when demo accounts already exist.
 */
export async function seedDemoStaff(demoPassword: string | undefined): Promise<{ created: boolean; password?: string }> {
  const existing = await db().staff.count({ where: { email: { endsWith: "@demo.local" } } });
  if (existing > 0) return { created: false };
  const password = demoPassword ?? generatedDemoPassword();
  for (const role of ROLES) {
    await createStaffAsOperator(
      { email: `${role}@demo.local`, name: `Demo ${ROLE_LABELS[role]}`, roles: [role], password },
      "demo-seed",
    );
  }
  return { created: true, password: demoPassword ? undefined : password };
}

/** 96 random bits as 16 characters: far past the password rule's "safely unguessable". */
export function generatedDemoPassword(): string {
  return randomBytes(12).toString("base64url");
}
