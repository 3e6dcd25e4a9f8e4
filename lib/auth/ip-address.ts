/**
 * IPv4 and IPv6 addresses and CIDR ranges, pure (the request gate loads lib/env, which parses
 * TRUSTED_PROXIES with this, so no node:net). An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`) is the IPv4 address: that is how a dual-stack socket reports one.
 */
export type IpAddress = { version: 4 | 6; value: bigint };
export type IpRange = { version: 4 | 6; base: bigint; prefix: number };

const BITS = { 4: 32, 6: 128 } as const;

export function parseIp(text: string): IpAddress | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseIpv6(text);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { version: 4, value: v6 & 0xffffffffn };
  return { version: 6, value: v6 };
}

/** `192.0.2.0/24`, `2001:db8::/32`, or a single address (a /32 or /128). */
export function parseRange(text: string): IpRange | null {
  const [addressText, prefixText, extra] = text.split("/");
  if (extra !== undefined || !addressText) return null;
  const address = parseIp(addressText);
  if (!address) return null;
  const bits = BITS[address.version];
  let prefix: number = bits;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText)) return null;
    prefix = Number(prefixText);
    // A mapped form with a v6 prefix (`::ffff:10.0.0.0/104`) counts in the IPv4 space.
    if (address.version === 4 && addressText.includes(":")) prefix -= 96;
    if (prefix < 0 || prefix > bits) return null;
  }
  return { version: address.version, base: address.value & mask(address.version, prefix), prefix };
}

export function inRange(address: IpAddress, range: IpRange): boolean {
  return address.version === range.version && (address.value & mask(range.version, range.prefix)) === range.base;
}

/** The canonical text of an address: dotted IPv4, or compressed lower-case IPv6. */
export function formatIp(address: IpAddress): string {
  if (address.version === 4) return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join(".");
  const groups = Array.from({ length: 8 }, (_, i) => Number((address.value >> BigInt(112 - 16 * i)) & 0xffffn));
  // Compress the longest run of two or more zero groups, as RFC 5952 says.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

function mask(version: 4 | 6, prefix: number): bigint {
  const bits = BigInt(BITS[version]);
  return ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(prefix))) - 1n);
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    // No leading zeros: `010` is octal to some parsers and decimal to others.
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const groups: bigint[] = [];
  const all = [...head, ...tail];
  for (let i = 0; i < all.length; i++) {
    const part = all[i]!;
    if (i === all.length - 1 && part.includes(".")) {
      const v4 = parseIpv4(part);
      if (v4 === null) return null;
      groups.push(v4 >> 16n, v4 & 0xffffn);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) {
      groups.push(BigInt(parseInt(part, 16)));
    } else {
      return null;
    }
  }
  if (halves.length === 1) return groups.length === 8 ? join(groups) : null;
  // An embedded IPv4 address may only end the address, so with `::` it is in the tail.
  if (groups.length > 7 || head.some((part) => part.includes("."))) return null;
  return join([...groups.slice(0, head.length), ...Array<bigint>(8 - groups.length).fill(0n), ...groups.slice(head.length)]);
}

function join(groups: bigint[]): bigint {
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}
