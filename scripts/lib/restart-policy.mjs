/**
 * When a supervised process that stopped unexpectedly (the worker, an app process) is started
 * again, and when to stop trying. Shared by the launcher (scripts/start.ts) and the app
 * server's primary (scripts/serve-app.mjs), so both follow one rule (README, "Supervision and
 * stopping"):
 * - the pause before a restart starts at 1 s and doubles with each crash, up to 30 s;
 * - a process that stayed up a healthy minute before it crashed starts the count afresh;
 * - the fifth crash with no healthy minute between them gives up: the caller stops everything
 *   and exits non-zero, so the supervisor above (systemd, Kubernetes, a container runtime),
 *   which can do what a restart here cannot (a new machine, an alert), takes over.
 * Plain JavaScript so that serve-app.mjs, run by node without tsx, can import it.
 */
export const RESTART_RULE = { firstDelayMs: 1_000, maxDelayMs: 30_000, healthyMs: 60_000, giveUpAfter: 5 };

/**
 * One supervised slot's count. `crashed(startedAt)` says how long to wait before starting the
 * process again, or null to give up; `crashes` is the count since the last healthy minute.
 */
export function createRestartPolicy(rule = RESTART_RULE, now = Date.now) {
  let crashes = 0;
  return {
    crashed(startedAt) {
      if (now() - startedAt >= rule.healthyMs) crashes = 0;
      crashes += 1;
      if (crashes >= rule.giveUpAfter) return null;
      return Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** (crashes - 1));
    },
    get crashes() {
      return crashes;
    },
  };
}
