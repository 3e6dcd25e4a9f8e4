import type { ChildProcess } from "node:child_process";

/**
 * Whether a child has exited. `exitCode` alone stays null for a child killed by a signal
 * (`signalCode` is set instead): a stop that waited on `exitCode` hung after a `kill -9`.
 */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null || child.pid === undefined;
}

/**
 * Asks a child to stop (SIGTERM, which each of ours handles by finishing what it holds) and
 * resolves once it has exited, however it exits; a child still running after `graceMs` is killed.
 */
export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
