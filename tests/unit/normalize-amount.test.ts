import { describe, expect, test } from "vitest";
import { normalizeAmount } from "@/components/withdrawals/normalize-amount";

describe("withdrawal amounts in the person's locale", () => {
  test("grouping and decimals of the locale are accepted", () => {
    expect(normalizeAmount("1,200.50", "en-US")).toBe("1200.50");
    expect(normalizeAmount("1.200,50", "de-DE")).toBe("1200.50");
    expect(normalizeAmount("1\u202f200,50", "fr-FR")).toBe("1200.50");
    expect(normalizeAmount("1 200,50", "fr-FR")).toBe("1200.50");
    expect(normalizeAmount(" 250 ", "en-US")).toBe("250");
  });

  test("anything not written exactly in the locale's pattern is left for the server to refuse", () => {
    expect(normalizeAmount("250.50", "de-DE")).toBe("250.50");
    expect(normalizeAmount("12,00.5", "en-US")).toBe("12,00.5");
    expect(normalizeAmount("1,200.505", "en-US")).toBe("1,200.505");
  });
});
