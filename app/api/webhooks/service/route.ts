import { problemAnswer, type PlainAnswer } from "@/lib/http/problem";
import { logger } from "@/lib/log";
import { receiveDelivery, receiveWebhook, type ReceiveResult } from "@/lib/webhooks/receive-webhook";
import type { SignatureHeaders } from "@/lib/webhooks/verify-signature";

/**
 * The upstream's webhook door (docs/service-api-v1.md, §6 Events). No session and no Origin check: the
 * signature is the authentication (the request gate lets this path through). Statuses follow the
 * sender's retry rules: 401 for a signature that matches no secret (retried, which covers
 * a rotation not yet deployed here), 400 for malformed input and 413 for an oversized body
 * (permanent rejections), 422 for a signed event whose data the database can never store
 * (permanent too; kept as `refused` for an admin), 200 for accepted and duplicate events,
 * 503 only when the event could not be kept (not configured, database down) so that the
 * sender retries.
 *
 * Two entries, one answer: `POST` for Next (dev mode, and what the server does not take
 * itself), and `answerDelivery` for the production server, which reads a delivery and
 * writes the answer itself (scripts/lib/webhook-door.mjs) without building a Web Request
 * and Response (a third of the receiver's CPU per delivery; `npm run bench:webhooks`).
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  const { status, headers, body } = await answer(() => receiveWebhook(req));
  return new Response(body, { status, headers });
}

/** A delivery already read by the server: its signature headers and raw body (null: over the size limit). */
export function answerDelivery(headers: SignatureHeaders, body: Uint8Array | null): Promise<PlainAnswer> {
  return answer(() => receiveDelivery(headers, body));
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
