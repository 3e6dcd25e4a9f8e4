import "server-only";
import { problemAnswer, type PlainAnswer } from "@/lib/http/problem";
import { logger } from "@/lib/log";
import { receiveDelivery, receiveWebhook, type ReceiveResult } from "./receive-webhook";
import type { SignatureHeaders } from "./verify-signature";

/**
 * The answer to one webhook delivery, as plain data: the statuses follow the sender's retry
 * rules (docs/service-api-v1.md, §6): 401 for a signature that matches no secret (retried,
 * which covers a rotation not yet deployed here), 400 for malformed input and 413 for an
 * oversized body (permanent rejections), 422 for a signed event whose data the database can
 * never store (permanent too; kept as `refused` for an admin), 200 for accepted and duplicate
 * events, 503 only when the event could not be kept (not configured, database down) so that
 * the sender retries.
 *
 * Two entries, one answer: `answerDelivery` for the app server's webhook door (lib/edge,
 * ahead of Next: the headers and body as it read them), `answerWebhook` for the route's `POST`
 * (a delivery that reaches Next: a chunked body, a bare `next start`).
 */
export function answerDelivery(headers: SignatureHeaders, body: Uint8Array | null): Promise<PlainAnswer> {
  return answer(() => receiveDelivery(headers, body));
}

export function answerWebhook(req: Request): Promise<PlainAnswer> {
  return answer(() => receiveWebhook(req));
}

async function answer(receive: () => Promise<ReceiveResult>): Promise<PlainAnswer> {
  try {
    const result = await receive();
    switch (result.outcome) {
      case "accepted":
        return {
          status: 200,
          headers: { "content-type": "application/json", "cache-control": "no-store" },
          body: JSON.stringify({ received: true, duplicate: result.duplicate }),
        };
      case "rejected":
        return problemAnswer(result.code, result.detail, { status: result.status });
      case "unavailable":
        return problemAnswer(result.code, result.detail, { status: 503 });
    }
  } catch (error) {
    logger.error("webhook receiver failed", { error: error instanceof Error ? error.message : String(error) });
    return problemAnswer("inbox_unavailable", "The event could not be stored; retry later.", { status: 503 });
  }
}
