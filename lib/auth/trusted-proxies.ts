import { formatIp, inRange, parseIp, parseRange, type IpRange } from "./ip-address";

/**
 * Which reverse proxies in front of the app may speak for the client (TRUSTED_PROXIES).
 * - unset or empty: none. X-Forwarded-* headers are ignored and the socket peer is the
 *   source, since anyone can send those headers to an app that faces them directly.
 * - a hop count (`1`, `2`): that many proxies, each appending to X-Forwarded-For.
 * - a comma-separated list of addresses and CIDR ranges (IPv4, IPv6): the proxies' own
 *   addresses; hops from them are skipped, right to left.
 * Pure: parsed once by lib/env.ts, applied by client-address.ts and lib/http/same-origin.ts.
 */
export type TrustedProxies = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "ranges"; ranges: IpRange[] };

export const TRUST_NONE: TrustedProxies = { kind: "none" };
const MAX_HOPS = 16;

/** Throws with a message naming the bad part; lib/env.ts turns it into a configuration error. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const text = value?.trim() ?? "";
  if (text === "" || text === "0") return TRUST_NONE;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new Error(`a hop count of at most ${MAX_HOPS} (got ${text})`);
    return { kind: "hops", hops };
  }
  const ranges = text.split(",").map((part) => {
    const range = parseRange(part.trim());
    if (!range) throw new Error(`a hop count or comma-separated IP addresses/CIDR ranges; "${part.trim()}" is neither`);
    return range;
  });
  return { kind: "ranges", ranges };
}

/** Whether the direct peer is one of the trusted proxies, so its X-Forwarded-* headers count. */
export function peerIsTrusted(peer: string, trust: TrustedProxies): boolean {
  if (trust.kind === "none") return false;
  if (trust.kind === "hops") return true;
  const address = parseIp(stripPort(peer));
  return !!address && trust.ranges.some((range) => inRange(address, range));
}

/**
 * The client's address: the rightmost hop that is not a trusted proxy. The chain is the
 * X-Forwarded-For entries followed by the socket peer; entries left of the first untrusted
 * hop were written by the client and are never looked at. An entry that is not an address
 * ends the walk at the last address before it (a proxy we trust, the best we know).
 */
export function pickClientAddress(peer: string, forwardedFor: readonly string[], trust: TrustedProxies): string {
  const peerAddress = parseIp(stripPort(peer));
  if (!peerAddress) return peer;
  if (!peerIsTrusted(peer, trust)) return formatIp(peerAddress);
  const chain = [...forwardedFor, peer];
  let chosen = formatIp(peerAddress);
  for (let hop = 1; hop < chain.length; hop++) {
    const address = parseIp(stripPort(chain[chain.length - 1 - hop]!.trim()));
    if (!address) return chosen;
    chosen = formatIp(address);
    const trusted =
      trust.kind === "hops" ? hop < trust.hops : trust.kind === "ranges" && trust.ranges.some((range) => inRange(address, range));
    if (!trusted) return chosen;
  }
  return chosen;
}

/** `192.0.2.1:4711` and `[2001:db8::1]:4711` (some proxies write ports) to the bare address. */
function stripPort(text: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  return v4WithPort ? v4WithPort[1]! : text;
}
