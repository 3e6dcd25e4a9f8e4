/** The policy's one rule: a person must have a second factor when any of their roles is required. */
export function mustHaveSecondFactor(roles: readonly string[], policy: { roles: readonly string[] }): boolean {
  return roles.some((role) => policy.roles.includes(role));
}

/** An active person with no confirmed second factor: their roles, and whether it is the one asking. */
export type FactorGap = { roles: string[]; you: boolean };

/**
 * What a policy means for the people it covers: how many have no factor yet (each is led to
 * enrol at their next sign-in), and whether the admin choosing it is one of them.
 */
export function policyGaps(
  gaps: readonly FactorGap[],
  policy: { roles: readonly string[] },
): { withoutFactor: number; includesYou: boolean } {
  const covered = gaps.filter((gap) => mustHaveSecondFactor(gap.roles, policy));
  return { withoutFactor: covered.length, includesYou: covered.some((gap) => gap.you) };
}
