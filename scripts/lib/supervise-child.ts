import type { ChildProcess } from "node:child_process";
import { createRestartPolicy, RESTART_RULE } from "./restart-policy.mjs";
import { stopChild } from "./stop-child";

/**
 * A child the launcher keeps running (the worker): started again after it stops unexpectedly,
 * by restart-policy.mjs's rule (a growing pause; giving up at the fifth crash with no healthy
 * minute between). Each start, crash, restart and the give-up is one plain line of the log.
 */
export type Supervised = {
  /** Stops the child (and any restart due), however it last exited; the same promise each call. */
  stop(): Promise<void>;
};

export function superviseChild(options: {
  /** What the log calls it: "the worker". */
  name: string;
  start: () => ChildProcess;
  /** How long the child may take to stop after SIGTERM before it is killed. */
  stopGraceMs: number;
  log: (line: string) => void;
  /** Called once, after the last crash: the launcher then stops everything and exits non-zero. */
  onGiveUp: () => void;
  /** Told of each crash before it is logged and a restart planned (the worker's: its heartbeat row is marked dead). */
  onCrash?: (crash: { pid: number; how: string }) => Promise<void>;
}): Supervised {
  const { name, log } = options;
  const policy = createRestartPolicy();
  let child: ChildProcess;
  let restart: NodeJS.Timeout | null = null;
  let stopped: Promise<void> | null = null;

  const run = () => {
    restart = null;
    const startedAt = Date.now();
    child = options.start();
    log(`${name} started (pid ${child.pid})`);
    const pid = child.pid;
    child.once("exit", async (code, signal) => {
      if (stopped) return;
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      if (pid !== undefined)
        await options.onCrash?.({ pid, how }).catch((error: unknown) => log(`${name}'s crash not recorded: ${String(error)}`));
      if (stopped) return;
      const delay = policy.crashed(startedAt);
      if (delay === null) {
        log(
          `${name} stopped unexpectedly (${how}), its ${policy.crashes}th crash without a healthy minute between: ` +
            `giving up, stopping everything and exiting with code 1 so that the supervisor above this one takes over`,
        );
        return options.onGiveUp();
      }
      log(
        `${name} stopped unexpectedly (${how}); starting it again in ${delay / 1000} s ` +
          `(crash ${policy.crashes} of ${RESTART_RULE.giveUpAfter} before giving up)`,
      );
      restart = setTimeout(run, delay);
    });
  };
  run();

  return {
    stop() {
      stopped ??= (async () => {
        if (restart) clearTimeout(restart);
        await stopChild(child, options.stopGraceMs);
      })();
      return stopped;
    },
  };
}
