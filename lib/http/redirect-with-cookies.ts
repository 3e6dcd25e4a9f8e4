import { NextResponse } from "next/server";

/** A cookie for a response to set (the SSO round trip's flow cookie, the session cookie). */
export type CookieToSet = {
  name: string;
  value: string;
  options: { httpOnly: boolean; sameSite: "lax"; path: string; secure: boolean; maxAge: number };
};

/** A 303 to `location` that sets `cookies`, never kept by a cache: the answers of the SSO round trip. */
export function redirectWithCookies(answer: { location: string; cookies: readonly CookieToSet[] }): Response {
  const res = NextResponse.redirect(answer.location, 303);
  for (const cookie of answer.cookies) res.cookies.set(cookie.name, cookie.value, cookie.options);
  res.headers.set("cache-control", "no-store");
  return res;
}
