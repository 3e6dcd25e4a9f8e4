import { describe, expect, test } from "vitest";
import { formatIp, inRange, parseIp, parseRange } from "@/lib/auth/ip-address";
import { parseTrustedProxies, pickClientAddress, TRUST_NONE } from "@/lib/auth/trusted-proxies";
import { clientAddress } from "@/lib/auth/client-address";
import { allowedOrigins } from "@/lib/http/same-origin";
import { PEER_ADDRESS_HEADER } from "@/lib/auth/peer-address-header";
import { getEnv } from "@/lib/env";

const canonical = (text: string) => {
  const ip = parseIp(text);
  return ip && formatIp(ip);
};

describe("IP addresses and ranges", () => {
  test.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::1", "::1"],
    ["::", "::"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:db8::", "2001:db8::"],
    ["fe80::1:0:0:1", "fe80::1:0:0:1"],
    ["2001:db8:0:1:0:0:0:1", "2001:db8:0:1::1"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::ffff:7f00:1", "127.0.0.1"],
    ["64:ff9b::192.0.2.33", "64:ff9b::c000:221"],
  ])("%s reads as %s", (text, expected) => {
    expect(canonical(text)).toBe(expected);
  });

  test.each([
    "",
    "256.1.1.1",
    "1.2.3",
    "01.2.3.4",
    "1.2.3.4.5",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    ":1",
    "1.2.3.4::",
    "::g",
    "fe80::1%eth0",
    "evil.example",
    "12345::",
  ])("%j is not an address", (text) => {
    expect(parseIp(text)).toBeNull();
  });

  test("ranges match by prefix, in their own family only", () => {
    const v4 = parseRange("10.0.0.0/8")!;
    const v6 = parseRange("2001:db8::/32")!;
    expect(inRange(parseIp("10.200.3.4")!, v4)).toBe(true);
    expect(inRange(parseIp("11.0.0.1")!, v4)).toBe(false);
    expect(inRange(parseIp("::ffff:10.1.1.1")!, v4)).toBe(true);
    expect(inRange(parseIp("2001:db8:ffff::1")!, v6)).toBe(true);
    expect(inRange(parseIp("2001:db9::1")!, v6)).toBe(false);
    expect(inRange(parseIp("10.0.0.1")!, v6)).toBe(false);
    expect(inRange(parseIp("192.0.2.7")!, parseRange("192.0.2.7")!)).toBe(true);
    expect(inRange(parseIp("192.0.2.8")!, parseRange("192.0.2.7")!)).toBe(false);
    expect(inRange(parseIp("10.1.2.3")!, parseRange("::ffff:10.0.0.0/104")!)).toBe(true);
    expect(inRange(parseIp("1.2.3.4")!, parseRange("0.0.0.0/0")!)).toBe(true);
  });
});

describe("TRUSTED_PROXIES", () => {
  test("unset, empty or 0 trusts nobody", () => {
    expect(parseTrustedProxies(undefined)).toEqual(TRUST_NONE);
    expect(parseTrustedProxies("  ")).toEqual(TRUST_NONE);
    expect(parseTrustedProxies("0")).toEqual(TRUST_NONE);
  });

  test("a number is a hop count", () => {
    expect(parseTrustedProxies("2")).toEqual({ kind: "hops", hops: 2 });
  });

  test("a list of addresses and CIDR ranges, IPv4 and IPv6", () => {
    const trust = parseTrustedProxies("10.0.0.0/8, 192.0.2.7 ,2001:db8::/32,::1");
    expect(trust.kind === "ranges" && trust.ranges.length).toBe(4);
  });

  test("a bad value stops the app's configuration with a line naming the variable", () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      DATABASE_URL: "postgresql://localhost/x",
      AUTH_SECRET: "s".repeat(32),
      TRUSTED_PROXIES: "proxy.internal",
    });
    try {
      expect(() => getEnv()).toThrow(
        'Configuration error: TRUSTED_PROXIES: must be a hop count or comma-separated IP addresses/CIDR ranges; "proxy.internal" is neither',
      );
    } finally {
      process.env = saved;
    }
  });

  test.each(["10.0.0.0/33", "2001:db8::/129", "proxy.internal", "10.0.0.0/8,,", "1.2.3.4/8/8", "17", "-1", "10.0.0.0/-1"])(
    "%j is refused with a message",
    (value) => {
      expect(() => parseTrustedProxies(value)).toThrow(/hop count/);
    },
  );
});

describe("the client address is the rightmost untrusted hop", () => {
  const ranges = parseTrustedProxies("10.0.0.0/8, 2001:db8::/32");

  test("with nobody trusted, the peer is the source whatever X-Forwarded-For says", () => {
    expect(pickClientAddress("198.51.100.4", ["6.6.6.6"], TRUST_NONE)).toBe("198.51.100.4");
    expect(pickClientAddress("::ffff:198.51.100.4", [], TRUST_NONE)).toBe("198.51.100.4");
  });

  test("one hop: the address the proxy appended, not what the client wrote before it", () => {
    const trust = parseTrustedProxies("1");
    expect(pickClientAddress("10.0.0.2", ["6.6.6.6", "203.0.113.9"], trust)).toBe("203.0.113.9");
    expect(pickClientAddress("10.0.0.2", ["203.0.113.9"], trust)).toBe("203.0.113.9");
  });

  test("two hops skip the second proxy", () => {
    expect(pickClientAddress("10.0.0.2", ["6.6.6.6", "203.0.113.9", "10.0.0.3"], parseTrustedProxies("2"))).toBe("203.0.113.9");
  });

  test("fewer entries than hops: the leftmost known address", () => {
    expect(pickClientAddress("10.0.0.2", [], parseTrustedProxies("1"))).toBe("10.0.0.2");
    expect(pickClientAddress("10.0.0.2", ["203.0.113.9"], parseTrustedProxies("3"))).toBe("203.0.113.9");
  });

  test("ranges: trusted hops are skipped right to left, the first untrusted one is the source", () => {
    expect(pickClientAddress("10.0.0.2", ["6.6.6.6", "203.0.113.9", "10.1.1.1"], ranges)).toBe("203.0.113.9");
    expect(pickClientAddress("2001:db8::5", ["2001:db8::7", "2001:0db8:0:0:0:0:0:9", "2001:DB9::1"], ranges)).toBe("2001:db9::1");
  });

  test("ranges: a peer outside them is the source, its X-Forwarded-For ignored", () => {
    expect(pickClientAddress("203.0.113.50", ["6.6.6.6"], ranges)).toBe("203.0.113.50");
  });

  test("a garbage entry ends the walk at the last real address", () => {
    expect(pickClientAddress("10.0.0.2", ["6.6.6.6", "not-an-ip"], ranges)).toBe("10.0.0.2");
    expect(pickClientAddress("10.0.0.2", ["unknown"], parseTrustedProxies("1"))).toBe("10.0.0.2");
  });

  test("ports written by some proxies are dropped", () => {
    expect(pickClientAddress("10.0.0.2", ["203.0.113.9:51234"], ranges)).toBe("203.0.113.9");
    expect(pickClientAddress("10.0.0.2", ["[2001:db9::1]:443"], ranges)).toBe("2001:db9::1");
  });
});

describe("the request's source address and origin", () => {
  const spoofed = (peer: string) =>
    new Headers({
      [PEER_ADDRESS_HEADER]: peer,
      "x-forwarded-for": "6.6.6.6",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
      host: "app.internal:3000",
    });

  test("without the peer header from our server, the address is unknown, not what the client claims", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "6.6.6.6" }), parseTrustedProxies("1"))).toBeNull();
  });

  test("a spoofed X-Forwarded-For counts only from a trusted proxy", () => {
    expect(clientAddress(spoofed("127.0.0.1"), TRUST_NONE)).toBe("127.0.0.1");
    expect(clientAddress(spoofed("10.0.0.2"), parseTrustedProxies("10.0.0.0/8"))).toBe("6.6.6.6");
    expect(
      clientAddress(
        { [PEER_ADDRESS_HEADER]: "10.0.0.2", "x-forwarded-for": ["6.6.6.6", "203.0.113.9"] },
        parseTrustedProxies("1"),
      ),
    ).toBe("203.0.113.9");
  });

  test("X-Forwarded-Host/-Proto widen the allowed origins only from a trusted proxy", () => {
    const app = "https://backoffice.example";
    expect([...allowedOrigins(spoofed("127.0.0.1"), app, TRUST_NONE)]).toEqual([app, "http://app.internal:3000"]);
    expect([...allowedOrigins(spoofed("198.51.100.4"), app, parseTrustedProxies("10.0.0.0/8"))]).toEqual([
      app,
      "http://app.internal:3000",
    ]);
    expect([...allowedOrigins(spoofed("10.0.0.2"), app, parseTrustedProxies("10.0.0.0/8"))]).toEqual([
      app,
      "https://evil.example",
    ]);
  });
});
