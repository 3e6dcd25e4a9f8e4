/** The policy's one rule: a person must have a second factor when any of their roles is required. */
export function mustHaveSecondFactor(roles: readonly string[], policy: { roles: readonly string[] }): boolean {
  return roles.some((role) => policy.roles.includes(role));
}
