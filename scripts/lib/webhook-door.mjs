/**
 * The upstream's webhook deliveries, answered ahead of Next's request pipeline by the app
 * server (scripts/serve-app.mjs), with the compiled route's own `answerDelivery`
 * (app/api/webhooks/service/route.ts): the receiver and answer that the route's `POST` gives
 * Next, so what is checked, stored and answered does not change.
 *
 * Why: through Next a delivery cost the app 1.3 to 1.9 ms of CPU (its router, its proxy, its
 * request and response objects), several times the receiver's own work (signature, envelope,
 * inbox insert). Answered here, about 0.2 ms (0.19 to 0.21 in `npm run bench:webhooks`, the
 * app as `npm start` runs it): the route's `answerDelivery` takes the headers and body as read
 * here and gives back plain data, so no Web Request or Response is built either. The upstream
 * sends events in bursts (a bulk order is hundreds), and each one waits for its acknowledgement.
 *
 * What is left out, and why that is safe: the request gate (lib/http/gate.ts) lets this path
 * through without a session (the signature is its authentication), and its other checks
 * concern what is not taken here: another method (405), a query string or an undecodable path
 * (400). Only a POST to exactly this path, with a declared length, comes here; everything else
 * goes to the gate and Next as before. The answer gets the headers Next would add (next.config.mjs's security headers)
 * and a policy that lets nothing load, since it is JSON.
 *
 * The body is read here in full before the handler runs, up to READ_AHEAD_BYTES (a bound on
 * memory, above the receiver's own limit, which still decides: 413 for a body over 256 KiB).
 * A larger declared length, or a chunked body, goes to Next, whose handler streams it.
 */
import { randomUUID } from "node:crypto";
import { loadRouteExport, sendPlainAnswer } from "./compiled-route.mjs";

export const WEBHOOK_PATH = "/api/webhooks/service";
const READ_AHEAD_BYTES = 1024 * 1024;
// A JSON answer: it lets nothing load.
const ANSWER_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** @param {import("node:http").IncomingMessage} req */
export function isWebhookDelivery(req) {
  if (req.method !== "POST" || req.url !== WEBHOOK_PATH) return false;
  const length = req.headers["content-length"];
  return length !== undefined && /^\d{1,10}$/.test(length) && Number(length) <= READ_AHEAD_BYTES;
}

/**
 * The route's `answerDelivery` from the production build in `dir` (`next build`'s output),
 * loaded as Next loads the route. Throws when there is no such build or it has no such export.
 * @param {string} dir
 * @returns {Promise<import("./webhook-door.d.mts").AnswerDelivery>}
 */
export async function loadWebhookHandler(dir) {
  return /** @type {import("./webhook-door.d.mts").AnswerDelivery} */ (
    await loadRouteExport(dir, "api/webhooks/service", "answerDelivery")
  );
}

/**
 * Answers one delivery (a request `isWebhookDelivery` accepted) with the route's `answerDelivery`.
 * @param {import("./webhook-door.d.mts").AnswerDelivery} answerDelivery
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
export async function serveWebhook(answerDelivery, req, res) {
  let answer;
  try {
    const body = await readBody(req);
    answer = await answerDelivery(
      {
        eventId: req.headers["x-service-event-id"],
        timestamp: req.headers["x-service-timestamp"],
        signature: req.headers["x-service-signature"],
      },
      body,
    );
  } catch (error) {
    // The handler answers its own failures (503, retried by the sender); this is the body
    // not arriving whole, or the handler itself broken. Not acknowledged, so nothing is lost.
    // A problem document as lib/http/problem.ts writes them (that module is not loaded here).
    const correlationId = randomUUID();
    console.error(
      `[serve-app] webhook delivery failed (${correlationId}):`,
      error instanceof Error ? error.message : String(error),
    );
    answer = {
      status: 503,
      headers: { "content-type": "application/problem+json", "cache-control": "no-store", "x-correlation-id": correlationId },
      body: JSON.stringify({
        type: "about:blank",
        title: "Service unavailable",
        status: 503,
        detail: "The event could not be stored; retry later.",
        code: "inbox_unavailable",
        correlationId,
      }),
    };
  }
  sendPlainAnswer(res, answer, ANSWER_POLICY);
}

/**
 * The whole body (its length was declared and bounded by `isWebhookDelivery`).
 * @param {import("node:http").IncomingMessage} req
 * @returns {Promise<Buffer>}
 */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once("error", reject);
    // A client gone mid-body: no "end" comes (node reports an error first; this is the backstop).
    req.once("close", () => req.complete || reject(new Error("the delivery's body was cut short")));
  });
}
