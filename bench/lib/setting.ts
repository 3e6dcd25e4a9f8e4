/**
 * A bench's numeric setting from the environment (BENCH_VIEWS=120 and the like), checked.
 *
 * `Number(process.env.X ?? fallback)` turns a typo into NaN, and NaN views, seconds or staff
 * silently mean none (a loop `i < NaN` never runs): the bench then prints figures for a run it
 * did not make. So a value that is not a number in the setting's range stops the bench before
 * it starts, naming the setting. Unset or empty means the default.
 */
export function benchNumber(
  name: `BENCH_${string}`,
  fallback: number,
  { min = 0, max = Number.POSITIVE_INFINITY, whole = true }: { min?: number; max?: number; whole?: boolean } = {},
  env: Record<string, string | undefined> = process.env,
): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  const kind = whole ? "a whole number" : "a number";
  const range = max === Number.POSITIVE_INFINITY ? `of at least ${min}` : `from ${min} to ${max}`;
  if (!Number.isFinite(value) || (whole && !Number.isInteger(value)) || value < min || value > max) {
    throw new Error(`${name} must be ${kind} ${range}, not ${JSON.stringify(text)} (unset: ${fallback})`);
  }
  return value;
}

/** A bench's own app, sandbox and database ports: BENCH_PORT, BENCH_SANDBOX_PORT, BENCH_DB_PORT, or these. */
export function benchPorts(defaults: { app: number; sandbox: number; db: number }) {
  const port = { min: 1, max: 65535 };
  return {
    app: benchNumber("BENCH_PORT", defaults.app, port),
    sandbox: benchNumber("BENCH_SANDBOX_PORT", defaults.sandbox, port),
    db: benchNumber("BENCH_DB_PORT", defaults.db, port),
  };
}
