import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { safeCallbackPath } from "@/lib/auth/safe-callback";

const APP = "http://localhost:3000";

describe("the sign-in callback stays on this app", () => {
  test.each([
    "/orders",
    "/orders/ord_123?tab=codes",
    "/audit?actor=x&from=2026-01-01",
    "/catalog?q=gift%20card",
    "/withdrawals#pending",
  ])("a path of the app is kept: %s", (path) => {
    expect(safeCallbackPath(path, APP)).toBe(path);
  });

  test("an absolute URL of this very origin is reduced to its path", () => {
    expect(safeCallbackPath("http://localhost:3000/orders?x=1", APP)).toBe("/orders?x=1");
  });

  test.each([
    ["tab between the slashes", "/\t/evil.example/x"],
    ["line feed between the slashes", "/\n/evil.example/x"],
    ["carriage return between the slashes", "/\r/evil.example/x"],
    ["NUL", "/\u0000/evil.example"],
    ["a line separator", "/\u2028/evil.example"],
    ["protocol-relative", "//evil.example/x"],
    ["three slashes", "///evil.example"],
    ["slash backslash", "/\\evil.example"],
    ["two backslashes", "\\\\evil.example"],
    ["backslash slash", "\\/evil.example"],
    ["an encoded slash", "/%2F/evil.example"],
    ["an encoded backslash", "/%5Cevil.example"],
    ["an encoded tab", "/%09/evil.example"],
    ["an encoded line feed", "/%0A/evil.example"],
    ["a double-encoded slash", "/%252F/evil.example"],
    ["a triple-encoded slash", "/%25252F/evil.example"],
    ["another origin", "https://evil.example/x"],
    ["another port of this host", "http://localhost:3001/orders"],
    ["another scheme of this host", "https://localhost:3000/orders"],
    ["this origin with a smuggled tab", "http://localhost:3000/\t/orders"],
    ["javascript:", "javascript:alert(1)"],
    ["javascript: in capitals", "JaVaScRiPt:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["a leading space", " //evil.example"],
    ["a bare host", "evil.example"],
    ["a relative path", "orders"],
    ["a broken percent-encoding", "/orders%E0%A4%A"],
    ["an empty value", ""],
    ["something overlong", "/" + "a".repeat(5000)],
  ])("%s goes home", (_name, value) => {
    expect(safeCallbackPath(value, APP)).toBe("/");
  });

  test("a missing or non-text value goes home; of repeated values only the first counts", () => {
    expect(safeCallbackPath(undefined, APP)).toBe("/");
    expect(safeCallbackPath(42, APP)).toBe("/");
    expect(safeCallbackPath(["//evil.example", "/orders"], APP)).toBe("/");
    expect(safeCallbackPath(["/orders", "//evil.example"], APP)).toBe("/orders");
  });
});

describe("the callback is fit for a Location header and still a path of this app", () => {
  test.each([
    ["a right-to-left override", "/\u202e", "/%E2%80%AE"],
    ["a right-to-left override before a host-like text", "/\u202eelpmaxe.live/orders", "/%E2%80%AEelpmaxe.live/orders"],
    ["an ideographic full stop", "/\u3002/evil.example", "/%E3%80%82/evil.example"],
    ["a fullwidth solidus after the slash", "/\uff0fevil.example", "/%EF%BC%8Fevil.example"],
    ["a Latin-1 letter", "/caf\u00e9", "/caf%C3%A9"],
    ["a non-ASCII query value", "/orders?reference=\u00e9", "/orders?reference=%C3%A9"],
  ])("%s is percent-encoded", (_name, value, location) => {
    expect(safeCallbackPath(value, APP)).toBe(location);
  });

  test.each([
    ["fullwidth solidi", "\uff0f\uff0fevil.example"],
    ["ideographic full stops for the slashes", "\u3002\u3002evil.example"],
    ["this origin followed by an ideographic full stop and a host", "http://localhost:3000\u3002evil.example/x"],
    ["another host ending in an ideographic full stop", "http://evil.example\u3002localhost:3000/"],
    ["a right-to-left override in front of another origin", "\u202ehttps://evil.example"],
  ])("%s goes home", (_name, value) => {
    expect(safeCallbackPath(value, APP)).toBe("/");
  });

  test("whatever comes in, what comes out is printable ASCII and resolves to this origin", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "grapheme" }),
          fc.webUrl(),
          fc.string().map((s) => `/${s}`),
        ),
        (value) => {
          const location = safeCallbackPath(value, APP);
          expect(location).toMatch(/^\/(?![/\\])[\x21-\x7e]*$|^\/$/);
          expect(new URL(location, APP).origin).toBe(APP);
        },
      ),
    );
  });
});
