import "server-only";
import { db } from "@/lib/db/client";
import { parseInput } from "@/lib/validation";
import { writeSetting } from "@/lib/settings/write-setting";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { POLICY_KEY, policySchema, readSecondFactorPolicy, type SecondFactorPolicy } from "./policy";
import { readFactorGaps } from "./factor-gaps";
import { policyGaps } from "./policy-rule";

/**
 * An admin sets which roles must have a second factor. It applies at each person's next
 * sign-in: one who must and has none is then led to enrol before anything else.
 */
export async function updateSecondFactorPolicy(
  actor: Actor,
  input: unknown,
): Promise<SecondFactorPolicy & ReturnType<typeof policyGaps>> {
  assertCan(actor, "settings.manage");
  const { roles } = parseInput(policySchema, input);
  const gaps = await db().$transaction(async (tx) => {
    const before = await readSecondFactorPolicy(tx);
    await writeSetting(tx, actor, { action: "settings.second_factor_policy", key: POLICY_KEY, from: before.roles, to: roles });
    return readFactorGaps(actor.staffId, tx);
  });
  const policy = await readSecondFactorPolicy();
  // Who the saved policy leads to enrol at their next sign-in: the admin reads how many (and whether they are one).
  return { ...policy, ...policyGaps(gaps, policy) };
}
