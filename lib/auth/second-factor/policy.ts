import "server-only";
import { z } from "zod";
import { db, type Tx } from "@/lib/db/client";
import { isLocalMode } from "@/lib/env";
import { ROLES, type RoleName } from "@/lib/auth/permissions";
import { mustHaveSecondFactor } from "./policy-rule";

/**
 * The workspace policy: which roles must have a second factor. Kept in the Setting table under
 * its own key, so "never set" is told apart from "set to none": never set means every role
 * that can move money or reveal codes, except in local mode (the launcher runs everything
 * itself, demo accounts sign in with a password), where it starts off.
 */
export const POLICY_KEY = "secondFactorRoles";

/** Every role that can spend the wallet, approve payouts or see codes. */
export const DEFAULT_REQUIRED_ROLES: readonly RoleName[] = ["admin", "approver", "finance", "support", "buyer"];

export const policySchema = z.strictObject({
  roles: z
    .array(z.enum(ROLES, { error: "Choose roles from the list." }))
    .max(ROLES.length)
    .transform((roles) => ROLES.filter((r) => roles.includes(r))),
});

export type SecondFactorPolicy = { roles: RoleName[]; isDefault: boolean };

export async function readSecondFactorPolicy(tx: Tx = db()): Promise<SecondFactorPolicy> {
  const row = await tx.setting.findUnique({ where: { key: POLICY_KEY } });
  const stored = row ? policySchema.shape.roles.safeParse(row.value) : null;
  if (stored?.success) return { roles: stored.data, isDefault: false };
  return { roles: isLocalMode() ? [] : [...DEFAULT_REQUIRED_ROLES], isDefault: true };
}

export { mustHaveSecondFactor };
