import "server-only";
import { chatOutcome, type Outcome } from "./delivery-policy";
import { retryAfterMs } from "@/lib/upstream/client/retry-policy";

const TIMEOUT_MS = 10_000;

/**
 * One POST of Slack-compatible JSON to the workspace's incoming webhook. Redirects are not
 * followed (a webhook answers where it is). The URL is a credential: no reason says it, only
 * the status or the transport's error code.
 */
export async function postChat(url: string, payload: object): Promise<Outcome> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    const retryAfter = response.headers.get("retry-after");
    return chatOutcome({ status: response.status, retryAfterMs: retryAfter ? retryAfterMs(retryAfter) : undefined });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    const transport = (error as Error).name === "TimeoutError" ? "timed out" : (cause?.code ?? "network error");
    return chatOutcome({ transport });
  }
}
