import { describe, expect, test } from "vitest";
import { escapeUnstorable, findUnstorableText, storableJson } from "@/lib/db/unstorable-text";

describe("text PostgreSQL cannot store", () => {
  test("finds a NUL or an unpaired surrogate anywhere in a JSON value, with its path", () => {
    expect(findUnstorableText({ id: "e", data: { orderId: "ord\u0000x" } })).toEqual({
      path: "$.data.orderId",
      problem: "a NUL character (U+0000)",
    });
    expect(findUnstorableText({ data: { list: ["ok", "bad \ud800"] } })).toEqual({
      path: "$.data.list[1]",
      problem: "an unpaired surrogate (U+D800)",
    });
    expect(findUnstorableText({ data: { "\udc01": 1 } })).toEqual({
      path: "$.data.\\udc01 (its name)",
      problem: "an unpaired surrogate (U+DC01)",
    });
  });

  test("accepts everything PostgreSQL stores: paired surrogates, other controls, numbers, null", () => {
    expect(
      findUnstorableText({ emoji: "😀 \ud83d\ude00", tab: "a\tb\u0001", n: 1, z: null, b: true, deep: [[{ x: "é" }]] }),
    ).toBeNull();
  });

  test("escapes the refused characters and other C0 controls as visible \\uXXXX, keeping pairs, tabs and line breaks", () => {
    expect(escapeUnstorable("a\u0000b\ud800c😀\t\n\r\u0007")).toBe("a\\u0000b\\ud800c😀\t\n\r\\u0007");
    expect(findUnstorableText(escapeUnstorable("x\u0000\udfff"))).toBeNull();
  });
});

describe("storableJson (the order mirror's upstream text)", () => {
  test("an upstream order's text with NUL or a lone surrogate is kept escaped, everything else as it was", () => {
    const lines = [
      { productName: "Gift\u0000card", note: "half \ud800 pair", "key\u0000": 1, price: "10.00", nested: { ok: "fine 😀\n" } },
    ];
    const stored = storableJson(lines);
    expect(findUnstorableText(stored)).toBeNull();
    expect(stored).toEqual([
      { productName: "Gift\\u0000card", note: "half \\ud800 pair", "key\\u0000": 1, price: "10.00", nested: { ok: "fine 😀\n" } },
    ]);
  });
});
