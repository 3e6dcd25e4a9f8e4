import { BlockList, isIP } from "node:net";

// Source-address checks for key allow-lists and the loopback-only control plane.

export type ParsedCidr = { address: string; prefix: number; family: "ipv4" | "ipv6" };

// The socket reports IPv4 clients of a dual-stack server as ::ffff:a.b.c.d; compare them as IPv4.
export function normalizeIp(address: string | undefined): string {
  if (!address) return "";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

export function parseCidr(text: string): ParsedCidr | null {
  const [address = "", prefixText, extra] = text.trim().split("/");
  if (extra !== undefined) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d+$/.test(prefixText ?? String(max)) || prefix > max) return null;
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

const cache = new Map<string, BlockList>();

export function isAllowed(sourceIp: string, cidrs: string[]): boolean {
  if (cidrs.length === 0) return true;
  const cacheKey = cidrs.join(",");
  let list = cache.get(cacheKey);
  if (!list) {
    list = new BlockList();
    for (const text of cidrs) {
      const cidr = parseCidr(text);
      if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
    }
    cache.set(cacheKey, list);
  }
  const version = isIP(sourceIp);
  if (version === 0) return false;
  return list.check(sourceIp, version === 4 ? "ipv4" : "ipv6");
}

export function isLoopback(sourceIp: string): boolean {
  return sourceIp === "::1" || /^127\.\d+\.\d+\.\d+$/.test(sourceIp);
}
