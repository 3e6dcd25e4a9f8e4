import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { getEnv, usesSecureCookies } from "@/lib/env";
import { safeCallbackPath } from "@/lib/auth/safe-callback";

/**
 * Runs before every page and route handler:
 * - a per-request CSP nonce (Next applies it to its own scripts; no inline script runs
 *   without it);
 * - without a session cookie that verifies, pages go to the sign-in page and every /api/*
 *   path answers 401 — except the few public doors below. Whether the session is still
 *   alive (sign-out, idle, deactivation) is decided by the page or handler against the
 *   database, since this check only proves the cookie was ours.
 */
const PUBLIC_API = [/^\/api\/health$/, /^\/api\/auth\//, /^\/api\/webhooks\/service$/];
const PUBLIC_PAGES = [/^\/signin$/];

export async function proxy(req: NextRequest) {
  const { pathname } = req.nextUrl;
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = contentSecurityPolicy(nonce);

  // Next answers a path it cannot decode (%ff, a lone %) with a bare 500 before any page or
  // handler runs: it is the visitor's input, so it gets a 400 here instead.
  if (!decodable(pathname)) return withHeaders(pathname.startsWith("/api/") ? undecodablePath() : undecodablePage(), csp);

  const isPublic = PUBLIC_API.some((p) => p.test(pathname)) || PUBLIC_PAGES.some((p) => p.test(pathname));
  if (!isPublic && !(await hasValidToken(req))) {
    if (pathname.startsWith("/api/")) return withHeaders(unauthenticated(), csp);
    const signIn = new URL("/signin", req.url);
    const back = safeCallbackPath(pathname + req.nextUrl.search, req.nextUrl.origin);
    if (back !== "/") signIn.searchParams.set("callbackUrl", back);
    return withHeaders(NextResponse.redirect(signIn), csp);
  }

  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

async function hasValidToken(req: NextRequest): Promise<boolean> {
  try {
    const env = getEnv();
    const token = await getToken({ req, secret: env.AUTH_SECRET, secureCookie: usesSecureCookies(env) });
    return !!token?.sid;
  } catch {
    return false;
  }
}

function contentSecurityPolicy(nonce: string): string {
  const dev = process.env.NODE_ENV === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function unauthenticated(): NextResponse {
  return problemResponse(401, "Sign-in required", "Sign in to continue.", "unauthenticated");
}

/** A problem document as lib/http/problem.ts writes them (that module is not loaded here). */
function problemResponse(status: number, title: string, detail: string, code: string): NextResponse {
  const correlationId = crypto.randomUUID();
  return NextResponse.json(
    { type: "about:blank", title, status, detail, code, correlationId },
    { status, headers: { "content-type": "application/problem+json", "cache-control": "no-store", "x-correlation-id": correlationId } },
  );
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function undecodablePath(): NextResponse {
  return problemResponse(400, "Invalid request", "The address is not valid: it has a broken percent-encoding.", "invalid_request");
}

function undecodablePage(): NextResponse {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad address</title></head><body style="font-family:sans-serif;padding:2rem"><h1>This address is not valid</h1><p>It has a broken percent-encoding. <a href="/">Go to the back-office</a>.</p></body></html>`;
  return new NextResponse(html, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

function withHeaders(res: NextResponse, csp: string): NextResponse {
  res.headers.set("Content-Security-Policy", csp);
  return res;
}

export const config = {
  // Everything but Next's static files and the favicon.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
