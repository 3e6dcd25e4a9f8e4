import { AppError } from "@/lib/errors";
import { getEnv } from "@/lib/env";
import { PEER_ADDRESS_HEADER } from "@/lib/auth/peer-address-header";
import { peerIsTrusted, type TrustedProxies } from "@/lib/auth/trusted-proxies";

/**
 * Refuses a state-changing request whose Origin is not this app. Browsers send Origin on
 * every non-GET fetch and form post, so a missing Origin is refused too.
 *
 * Besides APP_URL, the origin the request was addressed to is accepted: its Host over
 * plain http (the app itself serves no TLS), or X-Forwarded-Host/-Proto when the request
 * came through a trusted proxy (TRUSTED_PROXIES). From anyone else those two headers are
 * ignored: they are whatever the sender wrote, and Next fills them in from Host when
 * absent, so their presence says nothing.
 */
export function checkSameOrigin(headers: Headers, trust: TrustedProxies = getEnv().TRUSTED_PROXIES): void {
  const origin = headers.get("origin");
  if (!origin) throw new AppError("bad_origin", "The request has no Origin header.");
  if (!allowedOrigins(headers, getEnv().APP_URL, trust).has(origin))
    throw new AppError("bad_origin", "The request comes from another origin.");
}

export function allowedOrigins(headers: Headers, appUrl: string, trust: TrustedProxies): Set<string> {
  const allowed = new Set([new URL(appUrl).origin]);
  const peer = headers.get(PEER_ADDRESS_HEADER);
  const viaTrustedProxy = !!peer && peerIsTrusted(peer, trust);
  // A proxy that overwrites the header sends one value; of an appended list, the last is
  // the one the nearest (trusted) proxy wrote.
  const host = viaTrustedProxy ? (lastOf(headers.get("x-forwarded-host")) ?? headers.get("host")) : headers.get("host");
  const proto = viaTrustedProxy ? (lastOf(headers.get("x-forwarded-proto")) ?? "http") : "http";
  if (host && (proto === "http" || proto === "https")) allowed.add(`${proto}://${host}`);
  return allowed;
}

function lastOf(list: string | null): string | undefined {
  return list
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .pop();
}
