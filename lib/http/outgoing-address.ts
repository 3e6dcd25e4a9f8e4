import { BlockList, isIP } from "node:net";

/**
 * Where an outgoing webhook (the chat channel, and any later one) may go (pure, unit-tested):
 * a public https address, never this machine, its network or a cloud's metadata service, so an
 * admin's URL cannot make the worker reach inside. Checked on the text when it is saved and on
 * the resolved address when it is sent (lib/notifications/post-chat.ts). The only exception is
 * the deployment's own list, OUTGOING_WEBHOOK_ALLOW_HOSTS (`host:port`, for tests and local
 * receivers), where plain http is accepted too.
 */

/** Special-purpose IPv4 ranges (RFC 6890 and successors); an IPv4-mapped IPv6 address is checked against them too. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, where cloud metadata services answer
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["2001::", 23], // IETF protocol assignments (Teredo among them)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: carries an IPv4 address of any kind
  ["3fff::", 20], // documentation
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");

/** IPv6 global unicast: everything else (loopback, unique-local fc00::/7, link-local fe80::/10, NAT64, IPv4-mapped…) is not public. */
const GLOBAL_V6 = new BlockList();
GLOBAL_V6.addSubnet("2000::", 3, "ipv6");

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? "ipv4" : "ipv6";
  if (NOT_PUBLIC.check(address, type)) return false;
  return family === 4 || GLOBAL_V6.check(address, "ipv6");
}

/** The host as a URL's address names it: `[::1]` without its brackets, `example.com.` without its final dot. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

/** `host:port` with the port always written (80 and 443 included), the form OUTGOING_WEBHOOK_ALLOW_HOSTS lists. */
export function hostAndPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === "http:" ? "80" : "443")}`;
}

export const WEBHOOK_URL_MESSAGE = "Use the webhook's https:// address.";
export const NOT_PUBLIC_MESSAGE = "Use a public address: this one is on this machine or a private network.";

/**
 * What is wrong with a webhook URL's text, or null. WHATWG URL parsing first, so every spelling
 * of an address (127.1, 0x7f000001, 2130706433, 0177.0.0.1, [::ffff:7f00:1]) is judged as the
 * address it is. Names that only a private resolver answers (localhost, *.localhost, *.internal,
 * *.local, a name without a dot) are refused here; others are checked when resolved, at send.
 */
export function webhookUrlProblem(text: string, allowHosts: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return WEBHOOK_URL_MESSAGE;
  }
  if (url.username || url.password) return WEBHOOK_URL_MESSAGE;
  if ((url.protocol === "https:" || url.protocol === "http:") && allowHosts.includes(hostAndPort(url))) return null;
  if (url.protocol !== "https:") return WEBHOOK_URL_MESSAGE;
  const host = bareHostname(url).toLowerCase();
  if (isIP(host)) return isPublicAddress(host) ? null : NOT_PUBLIC_MESSAGE;
  if (!host.includes(".") || /(^|\.)(localhost|internal|local|localdomain|home\.arpa)$/.test(host)) return NOT_PUBLIC_MESSAGE;
  return null;
}

/** OUTGOING_WEBHOOK_ALLOW_HOSTS' entries as `host:port` (the host as a URL would spell it), or null when one is not one. */
export function parseAllowHosts(value: string | undefined): string[] | null {
  const entries = (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const hosts: string[] = [];
  for (const entry of entries) {
    const port = /:(\d{1,5})$/.exec(entry)?.[1];
    if (!port || Number(port) > 65535 || /[/?#@\s]/.test(entry)) return null;
    try {
      hosts.push(`${new URL(`http://${entry}`).hostname}:${Number(port)}`);
    } catch {
      return null;
    }
  }
  return hosts;
}
