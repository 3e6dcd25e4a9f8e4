import type { Sandbox } from "./context";
import { SandboxError } from "./problem";
import type { Workspace } from "./state";

// The contract's limit: N requests per workspace per fixed one-minute window (aligned to the minute of the
// sandbox clock, so advancing the clock by 60 s opens a new window), no queueing; excess gets 429.

const WINDOW_MS = 60_000;

export function takeRequest(sb: Sandbox, ws: Workspace): void {
  const now = sb.clock.now();
  const windowStart = now - (now % WINDOW_MS);
  if (ws.rateWindow.startMs !== windowStart) ws.rateWindow = { startMs: windowStart, count: 0 };
  const tally = windowTally(sb, ws.id, windowStart);
  if (ws.rateWindow.count >= sb.settings.rateLimitPerMinute) {
    sb.counters.rateLimited += 1;
    tally.rateLimited += 1;
    const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    throw new SandboxError({
      status: 429,
      code: "rate_limited",
      detail: `The workspace exceeded ${sb.settings.rateLimitPerMinute} requests per minute.`,
      extra: { retryAfterSeconds: retryAfter },
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  ws.rateWindow.count += 1;
  tally.accepted += 1;
}

/** What one workspace's window let through and refused, for GET /_sandbox/rate-limit; an hour of windows is kept. */
function windowTally(sb: Sandbox, workspaceId: string, windowStart: number): { accepted: number; rateLimited: number } {
  const windows = sb.counters.windows;
  const key = `${workspaceId} ${windowStart}`;
  let tally = windows.get(key);
  if (!tally) {
    tally = { accepted: 0, rateLimited: 0 };
    windows.set(key, tally);
    for (const old of windows.keys()) if (Number(old.split(" ")[1]) < windowStart - 60 * WINDOW_MS) windows.delete(old);
  }
  return tally;
}
