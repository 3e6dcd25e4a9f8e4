/**
 * The upstream's webhook deliveries, answered ahead of Next's request pipeline by the app
 * server (scripts/serve-app.mjs), with the route's own compiled handler: the same
 * `POST` of app/api/webhooks/service/route.ts that Next would call, so what is checked,
 * stored and answered does not change.
 *
 * Why: through Next a delivery cost the app 1.3 to 1.9 ms of CPU (its router, proxy.ts, its
 * request and response objects), several times the receiver's own work (signature, envelope,
 * inbox insert); answered here, 0.34 to 0.6 ms (`npm run bench:webhooks`, the app as
 * `npm start` runs it). The upstream sends events in bursts (a bulk order is hundreds), and
 * each one waits for its acknowledgement.
 *
 * What is left out, and why that is safe: proxy.ts lets this path through without a session
 * (the signature is its authentication), and its other checks concern what is not taken
 * here: another method (405), a query string or an undecodable path (400). Only a POST to
 * exactly this path, with a declared length, comes here; everything else goes to Next as
 * before. The answer gets the headers Next would add (next.config.mjs's security headers)
 * and a policy that lets nothing load, since it is JSON.
 *
 * The body is read here in full before the handler runs, up to READ_AHEAD_BYTES (a bound on
 * memory, above the receiver's own limit, which still decides: 413 for a body over 256 KiB).
 * A larger declared length, or a chunked body, goes to Next, whose handler streams it.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { SECURITY_HEADERS } from "../security-headers.mjs";

export const WEBHOOK_PATH = "/api/webhooks/service";
const READ_AHEAD_BYTES = 1024 * 1024;
const ANSWER_HEADERS = Object.fromEntries([
  ...SECURITY_HEADERS.map(({ key, value }) => [key.toLowerCase(), value]),
  ["content-security-policy", "default-src 'none'; frame-ancestors 'none'"],
]);

/** @param {import("node:http").IncomingMessage} req */
export function isWebhookDelivery(req) {
  if (req.method !== "POST" || req.url !== WEBHOOK_PATH) return false;
  const length = req.headers["content-length"];
  return length !== undefined && /^\d{1,10}$/.test(length) && Number(length) <= READ_AHEAD_BYTES;
}

/**
 * The route's `POST` from the production build in `dir` (`next build`'s output), loaded as
 * Next loads it. Throws when there is no such build or it exports no POST.
 * @param {string} dir
 * @returns {Promise<(req: Request) => Promise<Response>>}
 */
export async function loadWebhookHandler(dir) {
  const require = createRequire(import.meta.url);
  const { routeModule } = require(path.join(dir, ".next/server/app/api/webhooks/service/route.js"));
  await routeModule.ensureUserland();
  const post = routeModule.userland.POST;
  if (typeof post !== "function") throw new Error("the compiled webhook route exports no POST");
  return post;
}

/**
 * Answers one delivery (a request `isWebhookDelivery` accepted) with `post`.
 * @param {(req: Request) => Promise<Response>} post
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
export async function serveWebhook(post, req, res) {
  let status;
  let headers;
  let body;
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const requestHeaders = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) requestHeaders.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const response = await post(
      new Request(`http://localhost${WEBHOOK_PATH}`, { method: "POST", headers: requestHeaders, body: Buffer.concat(chunks) }),
    );
    status = response.status;
    headers = Object.fromEntries(response.headers);
    body = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    // The handler answers its own failures (503, retried by the sender); this is the body
    // not arriving whole, or the handler itself broken. Not acknowledged, so nothing is lost.
    // A problem document as lib/http/problem.ts writes them (that module is not loaded here).
    const correlationId = randomUUID();
    console.error(
      `[serve-app] webhook delivery failed (${correlationId}):`,
      error instanceof Error ? error.message : String(error),
    );
    status = 503;
    headers = { "content-type": "application/problem+json", "cache-control": "no-store", "x-correlation-id": correlationId };
    body = Buffer.from(
      JSON.stringify({
        type: "about:blank",
        title: "Service unavailable",
        status,
        detail: "The event could not be stored; retry later.",
        code: "inbox_unavailable",
        correlationId,
      }),
    );
  }
  if (res.destroyed) return;
  res.writeHead(status, { ...ANSWER_HEADERS, ...headers, "content-length": body.length });
  res.end(body);
}
