import type { NextRequest } from "next/server";
import { redirectWithCookies } from "@/lib/http/redirect-with-cookies";
import { beginSsoSignIn } from "@/lib/auth/sso/sso-round-trip";

/**
 * "Sign in with …": to the IdP (OpenID Connect, lib/auth/sso). Public, as next-auth's own routes
 * are. `purpose=step-up`: the step-up prompt's "Sign in again" for a session opened by SSO.
 */
export async function GET(req: NextRequest): Promise<Response> {
  const { searchParams } = req.nextUrl;
  const purpose = searchParams.get("purpose") === "step-up" ? "step_up" : "sign_in";
  return redirectWithCookies(await beginSsoSignIn(searchParams.get("callbackUrl"), purpose));
}
