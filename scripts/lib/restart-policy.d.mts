export type RestartRule = { firstDelayMs: number; maxDelayMs: number; healthyMs: number; giveUpAfter: number };
export const RESTART_RULE: RestartRule;
export type RestartPolicy = {
  /** The pause in ms before the next start of a process that ran since `startedAt` (epoch ms), or null to give up. */
  crashed(startedAt: number): number | null;
  readonly crashes: number;
};
export function createRestartPolicy(rule?: RestartRule, now?: () => number): RestartPolicy;
