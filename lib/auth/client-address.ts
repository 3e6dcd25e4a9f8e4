import { getEnv } from "@/lib/env";
import { PEER_ADDRESS_HEADER } from "./peer-address-header";
import { pickClientAddress, type TrustedProxies } from "./trusted-proxies";

/**
 * The source address of a request, for the sign-in throttle and the audit log.
 *
 * Next does not give route handlers the socket's address, so the app server's edge
 * (lib/edge/serve.ts, under `npm start` and `npm run dev`) writes it into PEER_ADDRESS_HEADER,
 * replacing whatever a client sent under that name. X-Forwarded-For counts only when that
 * peer is a trusted proxy (TRUSTED_PROXIES); then the rightmost hop that is not a trusted
 * proxy is the source. Without the peer header (the app served some other way) the
 * address is unknown: null, never a value the client chose.
 */
type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function read(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function")
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(",") : value;
}

export function clientAddress(headers: HeaderSource, trust: TrustedProxies = getEnv().TRUSTED_PROXIES): string | null {
  const peer = read(headers, PEER_ADDRESS_HEADER)?.trim();
  if (!peer) return null;
  const forwardedFor = (read(headers, "x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return pickClientAddress(peer, forwardedFor, trust).slice(0, 64);
}

export function clientUserAgent(headers: HeaderSource): string | null {
  return read(headers, "user-agent")?.slice(0, 512) ?? null;
}
