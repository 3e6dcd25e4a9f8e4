import path from "node:path";

/**
 * The checkouts a bench measures: this one, and, with BENCH_AGAINST=<another built checkout>
 * (e.g. a worktree of an older commit, after `next build` there), that one too, started on the
 * bench's ports plus one so both run at once and are measured by turns. This machine's speed
 * drifts within minutes, so runs of two builds one after the other do not compare; by turns
 * they see the same machine. A label only when there are two to tell apart.
 */
export type Checkout = { root: string; label: string; portOffset: number; dataDir: string; env: Record<string, string> };

export function checkoutsToMeasure(root: string, dataDir: string): Checkout[] {
  const against = process.env.BENCH_AGAINST ? path.resolve(process.env.BENCH_AGAINST) : undefined;
  const self = { root, label: against ? "this checkout" : "", portOffset: 0, dataDir, env: selfEnv() };
  return against ? [self, { root: against, label: against, portOffset: 1, dataDir: `${dataDir}-1`, env: {} }] : [self];
}

/**
 * BENCH_SELF_ENV="NAME=value NAME=value": variables for this checkout's app only, e.g. telemetry
 * switched on here and not in the checkout it is compared with.
 */
function selfEnv(): Record<string, string> {
  const pairs = (process.env.BENCH_SELF_ENV ?? "").split(/\s+/).filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}
