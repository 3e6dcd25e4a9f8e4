import { serializeState } from "../persist";
import { route } from "../http/router";
import { settleWithdrawals } from "../withdrawals";
import type { ControlHandler, ControlRoute } from "./context";

// The whole remembered state as one document, so a test can prove a refused request changed nothing.
// Settles due withdrawals first (as every wallet read does), so time alone never shows up as a change.
// Left out: each workspace's rate window (a refused request still counts against the limit, by contract),
// the injected-fault budget (`maxFaults` counts down with each fault, by design) and key secret hashes.
// `pendingTimers` (not state) says whether timers may still change it (order fulfilment, webhook retries),
// so a test can wait for rest before comparing.

export const stateRoutes: ControlRoute[] = [
  route<ControlHandler>("GET", "/_sandbox/state", (ctx) => {
    for (const ws of ctx.sb.state.workspaces.values()) settleWithdrawals(ctx.sb, ws);
    const state = JSON.parse(serializeState(ctx.sb.state), (key, value: unknown) =>
      key === "rateWindow" || key === "secretHash" ? undefined : value,
    ) as unknown;
    const faults: Partial<typeof ctx.sb.settings.faults> = { ...ctx.sb.settings.faults };
    delete faults.maxFaults;
    return { status: 200, json: { state, settings: { ...ctx.sb.settings, faults }, pendingTimers: ctx.sb.timers.pending() } };
  }),
];
