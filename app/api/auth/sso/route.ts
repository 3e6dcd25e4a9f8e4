import type { NextRequest } from "next/server";
import { redirectWithCookies } from "@/lib/http/redirect-with-cookies";
import { beginSsoSignIn } from "@/lib/auth/sso/sso-round-trip";

/** "Sign in with …": to the IdP (OpenID Connect, lib/auth/sso). Public, as next-auth's own routes are. */
export async function GET(req: NextRequest): Promise<Response> {
  return redirectWithCookies(await beginSsoSignIn(req.nextUrl.searchParams.get("callbackUrl")));
}
