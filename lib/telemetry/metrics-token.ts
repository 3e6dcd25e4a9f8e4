import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether an Authorization header carries the bearer token /metrics asks for. Compared as
 * digests in constant time: neither the token's length nor its first differing byte shows.
 */
export function hasMetricsToken(authorization: string | null, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}
