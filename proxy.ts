import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { decodeSessionToken } from "@/lib/auth/decode-session-token";
import { getEnv, usesSecureCookies } from "@/lib/env";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { findTextProblems, hasTextProblems } from "@/lib/validation";
import { allowedMethods, type RouteMethods } from "@/lib/http/allowed-methods";
import { freshContentSecurityPolicy } from "@/scripts/security-headers.mjs";

/**
 * Runs before every page and route handler:
 * - the Content-Security-Policy response header: the policy with this request's script nonce
 *   (Next gives the nonce to its own scripts; no inline script runs without it);
 * - without a session cookie that verifies, pages go to the sign-in page and every /api/*
 *   path answers 401 — except the few public doors below. Whether the session is still
 *   alive (sign-out, idle, deactivation) is decided by the page or handler against the
 *   database, since this check only proves the cookie was ours;
 * - the address is the visitor's input: a path or query string that breaks the text rule of
 *   lib/validation.ts (NUL, controls, line breaks, broken Unicode) is a 400 here, for every
 *   page and route, before anything reads it;
 * - a method the route handler does not export is a 405 problem document with `Allow`.
 */
const PUBLIC_API = [/^\/api\/health$/, /^\/api\/auth\//, /^\/api\/webhooks\/service$/];
const PUBLIC_PAGES = [/^\/signin$/];
// The sign-in page judges its own callbackUrl (it sends a bad one to "/"), so its query string is left to it.
const OWN_QUERY_RULES = [/^\/signin$/];
// Inlined at build time by next.config.mjs from scripts/discover-api-routes.mjs.
const API_ROUTES: RouteMethods[] = JSON.parse(process.env.API_ROUTE_METHODS ?? "[]");

export async function proxy(req: NextRequest) {
  const { pathname } = req.nextUrl;
  // scripts/serve-app.mjs puts the policy, with this request's nonce, in the request itself,
  // where the page render reads it too. Served any other way (`next start`), it is made here
  // and handed to the render below.
  const given = req.headers.get("content-security-policy");
  const csp = given ?? freshContentSecurityPolicy({ dev: process.env.NODE_ENV === "development" });

  // Next answers a path it cannot decode (%ff, a lone %) with a bare 500 before any page or
  // handler runs: it is the visitor's input, so it gets a 400 here instead.
  const isApi = pathname.startsWith("/api/");
  if (!decodable(pathname))
    return withHeaders(isApi ? undecodablePath() : badAddressPage("It has a broken percent-encoding."), csp);
  const addressErrors = addressTextErrors(req);
  if (addressErrors) {
    return withHeaders(
      isApi
        ? problemResponse(400, "Invalid request", "The address is not valid.", "invalid_request", { errors: addressErrors })
        : badAddressPage(`The ${describe(addressErrors)} contains a character that is not allowed.`),
      csp,
    );
  }

  const isPublic = PUBLIC_API.some((p) => p.test(pathname)) || PUBLIC_PAGES.some((p) => p.test(pathname));
  if (!isPublic && !(await hasValidToken(req))) {
    if (pathname.startsWith("/api/")) return withHeaders(unauthenticated(), csp);
    const signIn = new URL("/signin", req.url);
    const back = safeCallbackPath(pathname + req.nextUrl.search, req.nextUrl.origin);
    if (back !== "/") signIn.searchParams.set("callbackUrl", back);
    return withHeaders(NextResponse.redirect(signIn), csp);
  }

  if (isApi) {
    const allow = allowedMethods(pathname, API_ROUTES);
    if (allow && !allow.includes(req.method)) {
      return withHeaders(
        problemResponse(405, "Method not allowed", `This address answers ${allow.join(", ")}.`, "method_not_allowed", {
          headers: { allow: allow.join(", ") },
        }),
        csp,
      );
    }
  }

  // A page render reads the nonce from the policy in the request's headers. serve-app.mjs put
  // it there; otherwise it goes there now. Rewriting the request's headers costs Next about
  // 0.8 ms per request (`npm run bench:proxy`), and a route handler renders no script, so
  // API requests always pass on unchanged.
  if (isApi || given) return withHeaders(NextResponse.next(), csp);
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("content-security-policy", csp);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

async function hasValidToken(req: NextRequest): Promise<boolean> {
  try {
    const env = getEnv();
    const token = await getToken({
      req,
      secret: env.AUTH_SECRET,
      secureCookie: usesSecureCookies(env),
      decode: decodeSessionToken,
    });
    return !!token?.sid;
  } catch {
    return false;
  }
}

function unauthenticated(): NextResponse {
  return problemResponse(401, "Sign-in required", "Sign in to continue.", "unauthenticated");
}

/** A problem document as lib/http/problem.ts writes them (that module is not loaded here). */
function problemResponse(
  status: number,
  title: string,
  detail: string,
  code: string,
  extra: { errors?: Record<string, string[]>; headers?: Record<string, string> } = {},
): NextResponse {
  const correlationId = crypto.randomUUID();
  return NextResponse.json(
    { type: "about:blank", title, status, detail, code, correlationId, ...(extra.errors ? { errors: extra.errors } : {}) },
    {
      status,
      headers: {
        ...extra.headers,
        "content-type": "application/problem+json",
        "cache-control": "no-store",
        "x-correlation-id": correlationId,
      },
    },
  );
}

/** Text-rule errors of the decoded path ("path") and of every query parameter (by name), or null. */
function addressTextErrors(req: NextRequest): Record<string, string[]> | null {
  const { pathname, searchParams } = req.nextUrl;
  const errors: Record<string, string[]> = {};
  const pathProblems = findTextProblems(decodeURIComponent(pathname), { multiline: false });
  if (hasTextProblems(pathProblems)) errors.path = pathProblems._!;
  if (!OWN_QUERY_RULES.some((p) => p.test(pathname))) {
    const query: Record<string, string[]> = {};
    for (const [key, value] of searchParams) (query[key] ??= []).push(value);
    for (const [key, messages] of Object.entries(findTextProblems(query, { multiline: false })))
      errors[key.replace(/\.\d+$/, "")] ??= messages;
  }
  return Object.keys(errors).length ? errors : null;
}

function describe(errors: Record<string, string[]>): string {
  const names = Object.keys(errors).map((k) => (k === "path" ? "address" : `“${k.replace(/[^\x20-\x7e]/g, "?")}” parameter`));
  return names.join(" and ");
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
  return problemResponse(
    400,
    "Invalid request",
    "The address is not valid: it has a broken percent-encoding.",
    "invalid_request",
  );
}

/** `reason` is our own text (parameter names are reduced to printable ASCII), never raw input. */
function badAddressPage(reason: string): NextResponse {
  const safe = reason.replace(/[<>&"]/g, "?");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad address</title></head><body style="font-family:sans-serif;padding:2rem"><h1>This address is not valid</h1><p>${safe} <a href="/">Go to the back-office</a>.</p></body></html>`;
  return new NextResponse(html, {
    status: 400,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

function withHeaders(res: NextResponse, csp: string): NextResponse {
  res.headers.set("Content-Security-Policy", csp);
  return res;
}

export const config = {
  // Everything but Next's static files and the favicon.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
