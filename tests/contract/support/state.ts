import { expect } from "vitest";
import { expectProblem, type Json, type Response, type TestSandbox } from "./client";

// A refused request changes nothing: every refusal a contract test provokes goes through expectRefused, which
// reads the sandbox's whole state from the control plane (GET /_sandbox/state: balances, orders, quotes,
// idempotency keys, withdrawals, deposits, keys, endpoints, deliveries, events, audit, settings) before and
// after the request and compares the two.

/**
 * The state once the sandbox is at rest: no timer left to fire (order fulfilment, webhook retries) and no
 * webhook delivery under way, so that what changes between two reads was caused by the request in between.
 */
export async function readState(sb: Pick<TestSandbox, "control">): Promise<Json> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await sb.control("GET", "/state");
    if (res.status !== 200) throw new Error(`GET /_sandbox/state answered ${res.status} ${res.text}`);
    const { state, settings, pendingTimers } = res.body;
    const delivering = state.deliveries.$map.some(([, d]: [string, Json]) => d.status === "pending");
    if (pendingTimers === 0 && !delivering) return { state, settings };
    if (Date.now() > deadline)
      throw new Error("the sandbox did not come to rest within 15 s (timers or deliveries still pending)");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Runs `act` and fails unless the sandbox's state read back afterwards equals the state before it.
 * `refused` decides from the result whether it was a refusal (for requests that may also succeed, e.g. fuzzing).
 */
export async function expectStateUnchanged<T>(
  sb: Pick<TestSandbox, "control">,
  act: () => Promise<T>,
  refused: (result: T) => boolean = () => true,
): Promise<T> {
  const before = await readState(sb);
  const result = await act();
  if (refused(result)) expect(await readState(sb), "a refused request changed the sandbox's state").toEqual(before);
  return result;
}

/** The request is refused with `status` and `code` as a problem document, and the sandbox's state is unchanged. */
export async function expectRefused(
  sb: Pick<TestSandbox, "control">,
  act: () => Promise<Response>,
  status: number,
  code: string,
): Promise<Response> {
  const res = await expectStateUnchanged(sb, act);
  expectProblem(res, status, code);
  return res;
}
