import { validateHeaderValue } from "node:http";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { headerSafeLocation } from "@/lib/header-safe-location";

const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

describe("a Location header carries only printable ASCII", () => {
  test.each([
    ["a right-to-left override", "/\u202e", "/%E2%80%AE"],
    ["an ideographic full stop", "/\u3002/evil.example", "/%E3%80%82/evil.example"],
    ["a Latin-1 letter", "/caf\u00e9?q=\u00e9", "/caf%C3%A9?q=%C3%A9"],
    ["an emoji", "/orders?q=\u{1f381}", "/orders?q=%F0%9F%8E%81"],
    ["a space and a tab", "/a b\tc", "/a%20b%09c"],
    ["a lone surrogate", "/x\ud800", "/x%EF%BF%BD"],
  ])("%s is percent-encoded as UTF-8", (_name, given, sent) => {
    expect(headerSafeLocation(given)).toBe(sent);
  });

  test("what is already encoded, and every printable ASCII character, is kept as it is", () => {
    for (const kept of ["/caf%C3%A9", "/signin?callbackUrl=%2Forders%3Fx%3D1", "/a%20b#c", "/!$&'()*+,;=:@~"])
      expect(headerSafeLocation(kept)).toBe(kept);
  });

  test("any text becomes a value Node writes in a header, and decodes back to the same text", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }).filter((text) => !text.includes("%")),
        (text) => {
          const sent = headerSafeLocation(`/${text}`);
          expect(sent).toMatch(PRINTABLE_ASCII);
          expect(() => validateHeaderValue("location", sent)).not.toThrow();
          expect(decodeURIComponent(sent)).toBe(`/${text}`);
        },
      ),
    );
  });
});
