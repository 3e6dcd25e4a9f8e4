import type { NextRequest } from "next/server";
import { redirectWithCookies } from "@/lib/http/redirect-with-cookies";
import { clientAddress, clientUserAgent } from "@/lib/auth/client-address";
import { cookieSessionId } from "@/lib/auth/session-token";
import { flowCookieName } from "@/lib/auth/sso/flow-cookie";
import { completeSsoSignIn } from "@/lib/auth/sso/sso-round-trip";

/** The IdP's redirect back (the redirect URI registered there): the code exchanged, the person signed in or refused. */
export async function GET(req: NextRequest): Promise<Response> {
  const answer = await completeSsoSignIn(req.nextUrl.searchParams, req.cookies.get(flowCookieName())?.value, {
    ip: clientAddress(req.headers),
    userAgent: clientUserAgent(req.headers),
    // A step-up renews the proof of the session this browser holds.
    sessionId: await cookieSessionId(req.cookies),
  });
  return redirectWithCookies(answer);
}
