import { parse as parseCookies } from "cookie";
import { cookieSessionId } from "@/lib/auth/session-token";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { headerSafeLocation } from "@/lib/header-safe-location";
import { findTextProblems, hasTextProblems } from "@/lib/validation";
import { allowedMethods, type RouteMethods } from "./allowed-methods";
import { problemAnswer, type PlainAnswer } from "./problem";
import { readableRouterState } from "./router-state";

/**
 * The gate every request passes before any page or route handler runs:
 * - the address is the visitor's input: a path or query string that breaks the text rule of
 *   lib/validation.ts is a 400, as is a path Next cannot decode (%ff, a lone %) or a
 *   Next-Router-State-Tree header it cannot read (lib/http/router-state.ts), which Next would
 *   answer with a bare 500;
 * - without a session cookie that verifies, pages go to sign-in and /api/* answers 401, except
 *   the public doors below; whether the session is still alive is decided by the page or handler
 *   against the database (this only proves the cookie was ours);
 * - a method the route does not export is a 405 problem document with `Allow`.
 * Pure of the framework: request parts in, a plain answer or null out. One caller, the edge
 * (lib/edge/serve.ts); why there: docs/decisions/0001-edge-ahead-of-next.md.
 */
export type GateRequest = {
  method: string;
  /** The path as the URL parser gives it: percent-encoding kept. */
  pathname: string;
  /** The query string with its "?", or "" (Next's own `_rsc` parameter already removed). */
  search: string;
  /** The Cookie header, if any. */
  cookie: string | null;
  /** The Next-Router-State-Tree header (the client router's tree of the page it shows), if any. */
  routerState: string | null;
};

// The one-time links' pages and their uses: the link's token, not a session, proves the visitor.
const PUBLIC_API = [
  /^\/api\/health(\/ready)?$/,
  // Its own door: the bearer token of METRICS_TOKEN (app/api/metrics/route.ts).
  /^\/api\/metrics$/,
  /^\/api\/auth\//,
  /^\/api\/webhooks\/service$/,
  /^\/api\/invitations\/acceptance$/,
  /^\/api\/password-resets\/completion$/,
];
const PUBLIC_PAGES = [/^\/signin$/, /^\/metrics$/, /^\/robots\.txt$/, /^\/signin\/(invitation|reset-password)\/[^/]+$/];
// The sign-in page judges its own callbackUrl (it sends a bad one to "/"), so its query string is left to it.
const OWN_QUERY_RULES = [/^\/signin$/];
// Only the path and query of the redirect's callbackUrl matter; safeCallbackPath needs some origin to resolve them against.
const SOME_ORIGIN = "http://app.invalid";

/**
 * `routes`: the route handlers under app/api and the methods each exports
 * (scripts/discover-api-routes.mjs, read once when the server starts).
 */
export async function gateRequest(req: GateRequest, routes: readonly RouteMethods[]): Promise<PlainAnswer | null> {
  const { pathname, search } = req;
  const isApi = pathname.startsWith("/api/");
  if (!decodable(pathname))
    return isApi
      ? problemAnswer("invalid_request", "The address is not valid: it has a broken percent-encoding.")
      : badAddressPage("It has a broken percent-encoding.");
  const addressErrors = addressTextErrors(pathname, search);
  if (addressErrors) {
    return isApi
      ? problemAnswer("invalid_request", "The address is not valid.", { errors: addressErrors })
      : badAddressPage(`The ${describe(addressErrors)} contains a character that is not allowed.`);
  }
  if (!readableRouterState(req.routerState)) {
    const reason = "Its Next-Router-State-Tree header could not be read.";
    return isApi ? problemAnswer("invalid_request", `The request is not valid. ${reason}`) : badRequestPage(reason);
  }

  const isPublic = PUBLIC_API.some((p) => p.test(pathname)) || PUBLIC_PAGES.some((p) => p.test(pathname));
  if (!isPublic && !(await hasValidToken(req.cookie))) {
    if (isApi) return problemAnswer("unauthenticated", "Sign in to continue.");
    const back = safeCallbackPath(pathname + search, SOME_ORIGIN);
    const location = headerSafeLocation(back === "/" ? "/signin" : `/signin?${new URLSearchParams({ callbackUrl: back })}`);
    return { status: 307, headers: { location, "cache-control": "no-store" }, body: "" };
  }

  if (isApi) {
    const allow = allowedMethods(pathname, routes);
    if (allow && !allow.includes(req.method)) {
      const refused = problemAnswer("method_not_allowed", `This address answers ${allow.join(", ")}.`);
      return { ...refused, headers: { ...refused.headers, allow: allow.join(", ") } };
    }
  }
  return null;
}

async function hasValidToken(cookie: string | null): Promise<boolean> {
  if (!cookie) return false;
  try {
    const parsed = parseCookies(cookie);
    const store = {
      getAll: () => Object.entries(parsed).flatMap(([name, value]) => (value === undefined ? [] : [{ name, value }])),
    };
    return (await cookieSessionId(store)) !== null;
  } catch {
    return false; // the configuration does not load: nobody is let through
  }
}

/** Text-rule errors of the decoded path ("path") and of every query parameter (by name), or null. */
function addressTextErrors(pathname: string, search: string): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  const pathProblems = findTextProblems(decodeURIComponent(pathname), { multiline: false });
  if (hasTextProblems(pathProblems)) errors.path = pathProblems._!;
  if (search && !OWN_QUERY_RULES.some((p) => p.test(pathname))) {
    const query: Record<string, string[]> = {};
    for (const [key, value] of new URLSearchParams(search)) (query[key] ??= []).push(value);
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

/** `reason` is our own text (parameter names are reduced to printable ASCII), never raw input. */
function badAddressPage(reason: string): PlainAnswer {
  return badRequestPage(reason, { title: "Bad address", heading: "This address is not valid" });
}

function badRequestPage(reason: string, words = { title: "Bad request", heading: "This request is not valid" }): PlainAnswer {
  const safe = reason.replace(/[<>&"]/g, "?");
  return {
    status: 400,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${words.title}</title></head><body style="font-family:sans-serif;padding:2rem"><h1>${words.heading}</h1><p>${safe} <a href="/">Go to the back-office</a>.</p></body></html>`,
  };
}
