/** Whether a string read from the database or a request is one of a closed set of names (a role, a state). */
export function isOneOf<const T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}
