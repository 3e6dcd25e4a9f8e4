import type { IncomingMessage, ServerResponse } from "node:http";
import { problemAnswer, type PlainAnswer } from "@/lib/http/problem";
import { logger } from "@/lib/log";
import type { SignatureHeaders } from "@/lib/webhooks/verify-signature";
import { sendPlainAnswer } from "./plain-answer";

/**
 * The upstream's webhook deliveries, answered by the app server ahead of Next with the receiver
 * the route's `POST` uses (lib/webhooks/answer-delivery.ts), so what is checked, stored and
 * answered does not change; through Next a delivery cost several times the receiver's own work.
 * Only a POST to exactly this path with a declared length up to READ_AHEAD_BYTES comes here (a
 * bound on memory; the receiver's own limit still decides the 413); anything else goes to the
 * gate and Next. Skipping the gate is safe: it lets this path through without a session (the
 * signature is its authentication), and its other checks concern requests that never come here.
 * Figures: docs/decisions/0004-webhook-deliveries-ahead-of-next.md.
 */
export const WEBHOOK_PATH = "/api/webhooks/service";
const READ_AHEAD_BYTES = 1024 * 1024;
/** A JSON answer: it lets nothing load. */
const ANSWER_POLICY = "default-src 'none'; frame-ancestors 'none'";

export type AnswerDelivery = (headers: SignatureHeaders, body: Uint8Array | null) => Promise<PlainAnswer>;

export function isWebhookDelivery(req: IncomingMessage): boolean {
  if (req.method !== "POST" || req.url !== WEBHOOK_PATH) return false;
  const length = req.headers["content-length"];
  return length !== undefined && /^\d{1,10}$/.test(length) && Number(length) <= READ_AHEAD_BYTES;
}

/** Answers one delivery that `isWebhookDelivery` accepted. */
export async function serveWebhook(answerDelivery: AnswerDelivery, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let answer: PlainAnswer;
  try {
    const body = await readBody(req);
    answer = await answerDelivery(
      {
        eventId: header(req, "x-service-event-id"),
        timestamp: header(req, "x-service-timestamp"),
        signature: header(req, "x-service-signature"),
      },
      body,
    );
  } catch (error) {
    // The receiver answers its own failures (503, retried by the sender); this is the body not
    // arriving whole, or the receiver itself broken. Not acknowledged, so nothing is lost.
    answer = problemAnswer("inbox_unavailable", "The event could not be stored; retry later.", { status: 503 });
    logger.error("webhook delivery failed", {
      correlationId: answer.headers["x-correlation-id"],
      error: error instanceof Error ? error.message : String(error),
    });
  }
  sendPlainAnswer(res, answer, ANSWER_POLICY);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The whole body (its length was declared and bounded by `isWebhookDelivery`). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once("error", reject);
    // A client gone mid-body: no "end" comes (node reports an error first; this is the backstop).
    req.once("close", () => req.complete || reject(new Error("the delivery's body was cut short")));
  });
}
