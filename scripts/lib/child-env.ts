import path from "node:path";

const WATCHDOG = path.join(import.meta.dirname, "exit-with-parent.cjs");

/**
 * The environment for a Node process the launcher starts: NODE_OPTIONS preloads
 * exit-with-parent.cjs, so the process (and every Node process it starts in turn) stops when
 * its parent dies, instead of living on as an orphan that holds a port.
 */
export function withParentWatchdog(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const preload = `--require=${JSON.stringify(WATCHDOG)}`;
  const options = env.NODE_OPTIONS ?? "";
  return { ...env, NODE_OPTIONS: options.includes(WATCHDOG) ? options : `${options} ${preload}`.trim() };
}

/**
 * How the launcher starts a TypeScript child (the worker, the sandbox): this very Node with
 * tsx's loader (`node --import tsx`, tsx's documented way; the child runs in the project's
 * root, where `tsx` resolves), so every process of one start runs on the same runtime
 * (package.json pins one; see README), whatever `node` a bare PATH would find. One process per
 * child, not tsx's CLI with the script in a process of its own beneath it: the pid the launcher
 * watches and signals is the one doing the work, and a `kill -9` of the worker is seen as such.
 */
export function tsxCommand(args: string[]): [string, string[]] {
  return [process.execPath, ["--import", "tsx", ...args]];
}

/** The payout key's variables (SERVICE_PAYOUT_KEY, its _NEXT and expiries): the worker's alone. */
const PAYOUT_VARIABLE = /^SERVICE_PAYOUT_KEY(?:_|$)/;

/**
 * The environments of the app's web processes and of the worker, from the launcher's own
 * (`base`), the launcher's settings (`env`) and what only the worker gets (`workerEnv`). The
 * web processes never get the payout key, wherever it came from (the local sandbox, or an
 * operator's SERVICE_PAYOUT_KEY): nothing a page or route does can move funds out.
 */
export function processEnvironments(
  base: NodeJS.ProcessEnv,
  env: Record<string, string>,
  workerEnv: Record<string, string>,
): { web: NodeJS.ProcessEnv; worker: NodeJS.ProcessEnv } {
  const all = { ...base, ...env };
  const web = Object.fromEntries(Object.entries(all).filter(([name]) => !PAYOUT_VARIABLE.test(name))) as NodeJS.ProcessEnv;
  return { web: withParentWatchdog(web), worker: withParentWatchdog({ ...all, ...workerEnv }) };
}
