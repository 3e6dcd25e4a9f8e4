import { NextResponse, type NextRequest } from "next/server";
import { gateRequest } from "@/lib/http/gate";
import { freshContentSecurityPolicy } from "@/scripts/security-headers.mjs";

/**
 * The gate (lib/http/gate.ts: the text rule on the address, a verified session cookie, 405s)
 * for the requests the app server did not already put through it, and the response's
 * Content-Security-Policy header. In production scripts/serve-app.mjs runs the gate itself,
 * ahead of Next, marks the request with `x-backoffice-gated` and sets the policy header; this
 * proxy is skipped for such a request (the matcher below), which saves Next's proxy machinery,
 * about 0.9 ms of CPU per request. The server removes the header from whatever a client sent,
 * so a request reaches a page or handler only through one of the two (the app is served by
 * serve-app.mjs, never a bare `next start`: README). Dev mode, where the server cannot load
 * the compiled gate, comes through here.
 */
export async function proxy(req: NextRequest) {
  // serve-app.mjs puts the policy, with this request's nonce, in the request itself, where the
  // page render reads it too. Served any other way, it is made here and handed to the render below.
  const given = req.headers.get("content-security-policy");
  const csp = given ?? freshContentSecurityPolicy({ dev: process.env.NODE_ENV === "development" });

  const { pathname, search } = req.nextUrl;
  const refused = await gateRequest({
    method: req.method,
    pathname,
    search,
    cookie: req.headers.get("cookie"),
    routerState: req.headers.get("next-router-state-tree"),
  });
  if (refused) {
    const { status, headers, body } = refused;
    // Next's proxy takes only an absolute Location (it makes it relative again on the way out).
    if (headers.location) headers.location = new URL(headers.location, req.url).toString();
    return withHeaders(new NextResponse(body || null, { status, headers }), csp);
  }

  // A page render reads the nonce from the policy in the request's headers. serve-app.mjs put
  // it there; otherwise it goes there now. Rewriting the request's headers costs Next about
  // 0.8 ms per request (`npm run bench:proxy`), and a route handler renders no script, so
  // API requests always pass on unchanged.
  if (pathname.startsWith("/api/") || given) return withHeaders(NextResponse.next(), csp);
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("content-security-policy", csp);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

function withHeaders(res: NextResponse, csp: string): NextResponse {
  res.headers.set("Content-Security-Policy", csp);
  return res;
}

export const config = {
  // Everything but Next's static files and the favicon, unless the app server gated it already
  // (the header's name is kept in step with scripts/serve-app.mjs; Next reads this statically).
  matcher: [
    { source: "/((?!_next/static|_next/image|favicon.ico).*)", missing: [{ type: "header", key: "x-backoffice-gated" }] },
  ],
};
