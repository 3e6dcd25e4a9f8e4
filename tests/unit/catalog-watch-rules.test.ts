import { describe, expect, test } from "vitest";
import { describePriceFlag } from "@/lib/catalog-watch/price-flag-words";
import { measureMove } from "@/lib/catalog-watch/price-move";
import { groupLabel, matchesGroup, watchInputSchema, watchKey } from "@/lib/catalog-watch/watch-target";

describe("a price move", () => {
  test("is the dearest moved variant's, rounded to the basis point, signed", () => {
    expect(measureMove({ a: "500", b: "10000" }, { a: "526", b: "10500" })).toEqual({
      variantId: "b",
      from: "10000",
      to: "10500",
      percent: 5,
    });
    expect(measureMove({ a: "2450" }, { a: "2401" })?.percent).toBe(-2);
    expect(measureMove({ a: "300" }, { a: "301" })?.percent).toBe(0.33);
  });

  test("is none when nothing moved, or a variant has no reference price yet", () => {
    expect(measureMove({ a: "100" }, { a: "100" })).toBeNull();
    expect(measureMove({}, { a: "100" })).toBeNull();
  });
});

describe("a watch's target", () => {
  test("a brand with a type and a country: its key ignores the brand's case, its label reads as people say it", () => {
    const input = watchInputSchema.parse({ productType: "gift-card", brand: "Amazon", countryCode: "US" });
    expect(watchKey(input)).toBe("group:gift-card|amazon|US");
    expect(groupLabel({ productType: "gift-card", brand: "Amazon", countryCode: "US" })).toBe("Amazon gift cards, US");
    expect(groupLabel({ productType: "phone-top-up", brand: null, countryCode: "MX" })).toBe("Top-ups, MX");
    expect(watchKey(watchInputSchema.parse({ productId: "prd_1" }))).toBe("product:prd_1");
  });

  test("a type alone, a lower-case country or both a product and a brand is refused", () => {
    expect(watchInputSchema.safeParse({ productType: "esim" }).success).toBe(false);
    expect(watchInputSchema.safeParse({ productType: "esim", countryCode: "mx" }).success).toBe(false);
    expect(watchInputSchema.safeParse({ productId: "prd_1", brand: "Amazon" }).success).toBe(false);
  });

  test("a product falls under a group by type, country and the brand's words in its name", () => {
    const card = { id: "p", type: "gift-card", name: "Amazon Gift Card – United States", countryCode: "US" };
    expect(matchesGroup({ productType: "gift-card", brand: "amazon", countryCode: "US" }, card)).toBe(true);
    expect(matchesGroup({ productType: "gift-card", brand: null, countryCode: "US" }, card)).toBe(true);
    expect(matchesGroup({ productType: "gift-card", brand: "Amazon", countryCode: "GB" }, card)).toBe(false);
    expect(matchesGroup({ productType: "esim", brand: "Amazon", countryCode: "US" }, card)).toBe(false);
  });
});

describe("a price note", () => {
  const none = { rose: 0, fell: 0, largestRise: 0, largestFall: 0, unavailable: 0 };
  test("says how many rows moved, which way, and by how much at most", () => {
    expect(describePriceFlag({ ...none, rose: 3, largestRise: 6.02 }, "row", "you uploaded")).toBe(
      "The price of 3 rows rose up to 6 % since you uploaded.",
    );
    expect(describePriceFlag({ ...none, rose: 1, largestRise: 5.5 }, "line", "you asked")).toBe(
      "The price of 1 line rose 5.5 % since you asked.",
    );
    expect(describePriceFlag({ ...none, fell: 2, largestFall: -3, unavailable: 1 }, "row", "you uploaded")).toBe(
      "The price of 2 rows fell up to 3 % since you uploaded; 1 row is of a product now unavailable.",
    );
    expect(describePriceFlag(none, "row", "you uploaded")).toBeNull();
  });
});
