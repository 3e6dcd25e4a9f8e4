/**
 * The request gate (lib/http/gate.ts: the text rule on the address, a verified session cookie,
 * 405s), run by the app server (scripts/serve-app.mjs) ahead of Next, with the gate compiled into
 * the catch-all API route (`gateRequest`, loaded as Next loads the route).
 *
 * Why: through Next's proxy (proxy.ts) the same checks cost about 0.9 ms of CPU per request,
 * nearly all of it Next's own work around a proxy: its request and response objects and the
 * merging of the proxy's headers into the request and the answer. The gate's own work is about
 * 25 µs a request (warm, with a session cookie). Measured by turns against the same app gated
 * by proxy.ts: `npm run bench:cpu` 8.6 against 9.3 ms of app CPU a view, `npm run bench:proxy`
 * a median of 111.2 against 112.9 ms a proxied catalog read (1.087 against 1.102).
 *
 * How the two stay one gate: a request this server let through carries GATED_HEADER, and
 * proxy.ts's matcher skips a request that has it. Whatever a client sent under that name is
 * removed first, for every request, so only this server can set it. What it does not take
 * goes on unmarked, and proxy.ts gates it as before:
 * - a path with `//` or a backslash in it (Next rewrites those before it routes them);
 * - everything, when the gate did not load (no production build: dev mode).
 * Next's static files and the favicon are not gated, as proxy.ts's matcher leaves them out.
 *
 * Before any of that, in dev mode too, the request target must be a path (`originFormTarget`):
 * Next takes nothing else. An asterisk-form `*` (`OPTIONS * HTTP/1.1`) made it throw (a 500);
 * an absolute-form `http://evil.example/api/staff` came back as a 308 to that other origin.
 */
import { randomUUID } from "node:crypto";
import { loadRouteExport, sendPlainAnswer } from "./compiled-route.mjs";

/** Keep in step with proxy.ts's matcher, which Next reads statically. */
export const GATED_HEADER = "x-backoffice-gated";
/** What proxy.ts's matcher leaves out. */
const UNGATED = /^\/(?:_next\/static|_next\/image|favicon\.ico)/;

/**
 * The compiled `gateRequest` from the production build in `dir`. Throws when there is no such
 * build or it has no such export.
 * @param {string} dir
 * @returns {Promise<import("./request-gate.d.mts").GateRequestFn>}
 */
export async function loadGate(dir) {
  return /** @type {import("./request-gate.d.mts").GateRequestFn} */ (await loadRouteExport(dir, "api/[...path]", "gateRequest"));
}

/**
 * Judges one request. When it may go on, it is marked (GATED_HEADER) and the response gets the
 * page's policy (`csp`) as its Content-Security-Policy, as proxy.ts gives it, and `true` comes
 * back; otherwise the refusal is written here and `false` comes back. An absolute-form target
 * is first rewritten in `req.url` to its path (`originFormTarget`); one that names no path is a 400.
 * @param {import("./request-gate.d.mts").GateRequestFn | null} gate null: leave the rest to proxy.ts
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {string} csp
 * @returns {Promise<boolean>}
 */
export async function passGate(gate, req, res, csp) {
  delete req.headers[GATED_HEADER];
  const target = originFormTarget(req.url ?? "");
  if (target === null) {
    sendPlainAnswer(res, badTargetAnswer(), csp);
    return false;
  }
  req.url = target;
  const pathEnd = target.indexOf("?");
  const rawPath = pathEnd === -1 ? target : target.slice(0, pathEnd);
  if (!gate || rawPath.includes("//") || rawPath.includes("\\")) return true;
  // Parsed as Next parses it for proxy.ts (dot segments resolved, the query kept encoded).
  const url = new URL(target, "http://gate.invalid");
  if (UNGATED.test(url.pathname)) return true;
  // Next's own parameter of a router request, which proxy.ts never sees (Next takes it out).
  if (url.searchParams.has("_rsc")) url.searchParams.delete("_rsc");
  const refused = await gate({
    method: req.method ?? "GET",
    pathname: url.pathname,
    search: url.search,
    cookie: req.headers.cookie ?? null,
    // node:http joins a repeated header's lines with ", ", as it does every header but a few.
    routerState: /** @type {string | undefined} */ (req.headers["next-router-state-tree"]) ?? null,
  });
  if (!refused) {
    req.headers[GATED_HEADER] = "1";
    res.setHeader("content-security-policy", csp);
    return true;
  }
  sendPlainAnswer(res, refused, csp);
  return false;
}

/**
 * The request target as an origin-form path and query, or null when it names no path.
 * - origin-form (`/orders?x=1`): as it is;
 * - absolute-form (`http://host/orders?x=1`), which a client sends to a proxy and RFC 9112
 *   (3.2.2) asks a server to accept: its path and query only, as the client's text has them,
 *   so whatever answers it (Next's redirects among them) can only point at this app;
 * - asterisk-form (`*`, for a server-wide OPTIONS), authority-form (`host:443`, for CONNECT) and
 *   anything else: null. This app has no server-wide answer to give.
 * @param {string} target
 * @returns {string | null}
 */
export function originFormTarget(target) {
  if (target.startsWith("/")) return target;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  if (!absolute) return null;
  const rest = target.slice(absolute[0].length);
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** A 400 problem document, the shape of lib/http/problem.ts's (written here: dev mode has no compiled gate). */
function badTargetAnswer() {
  const correlationId = randomUUID();
  const document = {
    type: "about:blank",
    title: "Invalid request",
    status: 400,
    detail: "The request target is not a path of this app (e.g. /orders).",
    code: "invalid_request",
    correlationId,
  };
  return {
    status: 400,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", "x-correlation-id": correlationId },
    body: JSON.stringify(document),
  };
}
