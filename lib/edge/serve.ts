import type { IncomingMessage, ServerResponse } from "node:http";
import { PEER_ADDRESS_HEADER } from "@/lib/auth/peer-address-header";
import { gateRequest } from "@/lib/http/gate";
import { problemAnswer } from "@/lib/http/problem";
import { answerDelivery } from "@/lib/webhooks/answer-delivery";
import { discoverApiRoutes } from "@/scripts/discover-api-routes.mjs";
import { freshContentSecurityPolicy } from "@/scripts/security-headers.mjs";
import { compressResponse } from "./compress-response";
import { sendPlainAnswer } from "./plain-answer";
import { MAX_FILE_BYTES, STATIC_PREFIX, staticFiles } from "./static-files";
import { isWebhookDelivery, serveWebhook } from "./webhook-door";

/**
 * The app's edge: what the app server (scripts/serve-app.mjs) does with every request before
 * Next sees it, in production and dev mode alike, in this order: webhook deliveries
 * (./webhook-door.ts); the socket's peer address into PEER_ADDRESS_HEADER, replacing a client's;
 * a fresh Content-Security-Policy and nonce for the request and the response; the target made a
 * plain path (`requestTarget`); the request gate (lib/http/gate.ts); Next's static files from
 * memory (./static-files.ts); zstd or gzip (./compress-response.ts); then Next. Nothing here
 * reads Next's build or imports Next. Why: docs/decisions/0001-edge-ahead-of-next.md.
 */
export type Edge = (req: IncomingMessage, res: ServerResponse, next: () => Promise<void>) => Promise<void>;

/**
 * What Next serves itself and the gate leaves alone: its static files, the favicon, and the
 * image optimizer's address (off in next.config.mjs: Next answers it 404 for anyone).
 */
const UNGATED = /^\/(?:_next\/static|_next\/image|favicon\.ico)(?:\/|$)/;

export function createEdge(options: { dev: boolean; dir: string }): Edge {
  const routes = discoverApiRoutes(options.dir).map(({ pattern, methods }) => ({ pattern, methods }));
  const files = staticFiles();
  return async function edge(req, res, next) {
    if (isWebhookDelivery(req)) return serveWebhook(answerDelivery, req, res);
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
    const csp = freshContentSecurityPolicy({ dev: options.dev });
    req.headers["content-security-policy"] = csp;

    const target = requestTarget(req.url ?? "");
    if (target === null) {
      return sendPlainAnswer(
        res,
        problemAnswer("invalid_request", "The request target is not a path of this app (e.g. /orders)."),
        csp,
      );
    }
    req.url = target;
    // Parsed as Next parses it (dot segments resolved, the query kept encoded).
    const url = new URL(target, "http://edge.invalid");
    if (!UNGATED.test(url.pathname)) {
      // Next's own parameter of a router request, which the app never sees (Next takes it out).
      url.searchParams.delete("_rsc");
      const refused = await gateRequest(
        {
          method: req.method ?? "GET",
          pathname: url.pathname,
          search: url.search,
          cookie: req.headers.cookie ?? null,
          // node:http joins a repeated header's lines with ", ", as it does every header but a few.
          routerState: headerText(req.headers["next-router-state-tree"]),
        },
        routes,
      );
      if (refused) return sendPlainAnswer(res, refused, csp);
    }
    const path = url.pathname;
    const staticFile = path.startsWith(STATIC_PREFIX);
    if (staticFile && files.answer(req, res, path, csp)) return;
    res.setHeader("content-security-policy", csp);
    compressResponse(
      req,
      res,
      staticFile ? { whole: (body) => files.keep(req, res, path, body), wholeLimitBytes: MAX_FILE_BYTES } : undefined,
    );
    await next();
  };
}

/**
 * The request target as an origin-form path and query, or null when this app cannot serve it:
 * - origin-form (`/orders?x=1`): as it is, unless its path has `//` or a backslash, which Next
 *   would rewrite (and redirect) before routing, past the gate's judgement;
 * - absolute-form (`http://host/orders?x=1`), which a client sends to a proxy and RFC 9112
 *   (3.2.2) asks a server to accept: its path and query only, as the client's text has them,
 *   so whatever answers it (Next's redirects among them) can only point at this app;
 * - asterisk-form (`*`, a server-wide OPTIONS), authority-form (`host:443`, for CONNECT) and
 *   anything else: null.
 */
export function requestTarget(raw: string): string | null {
  let target = raw;
  if (!target.startsWith("/")) {
    const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
    if (!absolute) return null;
    const rest = target.slice(absolute[0].length);
    target = rest.startsWith("/") ? rest : `/${rest}`;
  }
  const pathEnd = target.indexOf("?");
  const path = pathEnd === -1 ? target : target.slice(0, pathEnd);
  return path.includes("//") || path.includes("\\") ? null : target;
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}
