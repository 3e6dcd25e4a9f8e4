import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Sandbox } from "./context";
import { signWebhook } from "./signature";
import type { Delivery } from "./state";

// At-least-once delivery: first attempt at once, then 5 s doubling (times webhookRetryScale) up to 8 attempts.
// Redirects are not followed. A 4xx other than the contract's retryable list is a permanent rejection.
// Rejected and exhausted deliveries are parked, listable and redeliverable from the control plane.

export const MAX_ATTEMPTS = 8;
const FIRST_DELAY_MS = 5_000;
const RETRYABLE_4XX = new Set([401, 403, 404, 408, 410, 425, 429]);
export const DELIVERY_CONTRACT = "service-webhook-at-least-once-v1";

type Outcome = { statusCode: number | null; error: string | null };

export function scheduleAttempt(sb: Sandbox, deliveryId: string, delayMs: number): void {
  sb.timers.set(() => {
    attempt(sb, deliveryId).catch((error: unknown) =>
      sb.log(`webhook delivery ${deliveryId} failed internally: ${String(error)}`),
    );
  }, delayMs);
}

export function retryDelayMs(sb: Sandbox, attemptsSoFar: number): number {
  return FIRST_DELAY_MS * 2 ** (attemptsSoFar - 1) * sb.settings.webhookRetryScale;
}

async function attempt(sb: Sandbox, deliveryId: string): Promise<void> {
  const delivery = sb.state.deliveries.get(deliveryId);
  if (!delivery || delivery.status !== "pending") return;
  const endpoint = sb.state.endpoints.get(delivery.endpointId);
  if (!endpoint) return park(sb, delivery, "endpoint_removed");
  const timestamp = String(Math.floor(Date.now() / 1000)); // real time: receivers compare it with their own clock
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": "svc-webhooks/1 (sandbox)",
    "X-Service-Event-Id": delivery.eventId,
    "X-Service-Timestamp": timestamp,
    "X-Service-Signature": signWebhook(endpoint.secret, timestamp, delivery.eventId, delivery.body),
    "X-Service-Delivery-Contract": DELIVERY_CONTRACT,
  };
  const started = Date.now();
  const outcome = await post(endpoint.url, headers, delivery.body, sb.settings.webhookTimeoutMs, sb.shutdown);
  if (sb.shutdown.aborted) return;
  delivery.attemptsInCycle += 1;
  delivery.attempts.push({
    number: delivery.attempts.length + 1,
    startedAtUtc: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    statusCode: outcome.statusCode,
    error: outcome.error,
  });
  const code = outcome.statusCode;
  if (code !== null && code >= 200 && code < 300) {
    delivery.status = "delivered";
    delivery.nextAttemptAtRealMs = null;
  } else if (code !== null && code >= 400 && code < 500 && !RETRYABLE_4XX.has(code)) {
    return park(sb, delivery, "rejected");
  } else if (delivery.attemptsInCycle >= MAX_ATTEMPTS) {
    return park(sb, delivery, "exhausted");
  } else {
    const delay = retryDelayMs(sb, delivery.attemptsInCycle);
    delivery.nextAttemptAtRealMs = Date.now() + delay;
    scheduleAttempt(sb, delivery.id, delay);
  }
  sb.changed();
}

function park(sb: Sandbox, delivery: Delivery, reason: string): void {
  delivery.status = "parked";
  delivery.parkedReason = reason;
  delivery.nextAttemptAtRealMs = null;
  sb.log(`webhook delivery ${delivery.id} (${delivery.eventType}) parked: ${reason}`);
  sb.changed();
}

export function redeliver(sb: Sandbox, delivery: Delivery): void {
  delivery.status = "pending";
  delivery.parkedReason = null;
  delivery.attemptsInCycle = 0;
  delivery.nextAttemptAtRealMs = Date.now();
  scheduleAttempt(sb, delivery.id, 0);
  sb.changed();
}

function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Outcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ statusCode: null, error: "invalid URL" });
    }
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    let settled = false;
    const req = send(
      target,
      { method: "POST", headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) }, signal },
      (res: IncomingMessage) => {
        res.resume(); // the body is irrelevant; only the status acknowledges
        finish({ statusCode: res.statusCode ?? null, error: null });
      },
    );
    // The acknowledgement deadline covers connecting, sending and the response status line.
    const timer = setTimeout(() => req.destroy(new Error(`no response within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    req.on("error", (error) => finish({ statusCode: null, error: error.message }));
    req.end(body);
  });
}
