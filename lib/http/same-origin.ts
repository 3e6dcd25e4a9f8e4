import { AppError } from "@/lib/errors";
import { getEnv } from "@/lib/env";

/**
 * Refuses a state-changing request whose Origin is not this app. Browsers send Origin on
 * every non-GET fetch and form post, so a missing Origin is refused too.
 */
export function checkSameOrigin(headers: Headers): void {
  const origin = headers.get("origin");
  if (!origin) throw new AppError("bad_origin", "The request has no Origin header.");
  const allowed = new Set([new URL(getEnv().APP_URL).origin]);
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  const proto = headers.get("x-forwarded-proto") ?? "http";
  if (host) allowed.add(`${proto}://${host}`);
  if (!allowed.has(origin)) throw new AppError("bad_origin", "The request comes from another origin.");
}
