import { describe, expect, test } from "vitest";
import type { ProductView } from "@/lib/catalog/product-view";
import { describePrice } from "@/lib/catalog/describe-price";
import { describeValueGrid, faceCurrencyOf, formatFaceValue } from "@/lib/catalog/face-value";
import { checkValue } from "@/components/ordering/purchase-rules";
import { describeGrid } from "@/lib/bulk-orders/value-grid";

// A Colombian top-up as the sandbox lists it: bought by value on a COP grid, sold (priced) in USD.
const colombianTopUp: ProductView = {
  id: "prd_co",
  type: "phone-top-up",
  name: "Claro Colombia Top-Up",
  countryCode: "CO",
  currency: "USD",
  isAvailable: true,
  variants: [],
  minimumValue: 5000,
  maximumValue: 100000,
  valueStep: 1000,
  imageUrl: "/img",
  images: [],
  description: "Airtime top-up for Claro subscribers in Colombia. Values are in COP; the phone number is required.",
  terms: "",
  category: "Mobile Top-Up",
  isFeatured: false,
  sortOrder: 1,
};

describe("value grids are face values in the card's own currency", () => {
  test("the face currency is read from the description", () => {
    expect(faceCurrencyOf(colombianTopUp)).toBe("COP");
    expect(faceCurrencyOf({ description: "Digital Steam gift card for Mexico. Face values are in MXN." })).toBe("MXN");
    expect(faceCurrencyOf({ description: "A gift card." })).toBeNull();
  });

  test("a COP grid on a USD product reads in COP, never as dollars", () => {
    expect(describeValueGrid(colombianTopUp)).toBe("COP 5,000 – 100,000 in steps of 1,000");
    expect(describePrice(colombianTopUp)).toBe("Face value COP 5,000 – 100,000 in steps of 1,000");
    expect(describePrice(colombianTopUp)).not.toContain("$");
  });

  test("decimals show only when the face value has them; an unknown currency shows the bare number", () => {
    expect(formatFaceValue(12.5, "EUR")).toBe("EUR 12.50");
    expect(formatFaceValue(25, null)).toBe("25");
    expect(describeValueGrid({ ...colombianTopUp, description: "A top-up." })).toBe("5,000 – 100,000 in steps of 1,000");
  });

  test("the order form checks the value on the COP grid and names COP in its message", () => {
    expect(checkValue(colombianTopUp, "7000")).toBeNull();
    expect(checkValue(colombianTopUp, "7500")).toBe("Choose a multiple of COP 1,000 from COP 5,000.");
    expect(checkValue(colombianTopUp, "200000")).toBe("Choose between COP 5,000 and COP 100,000.");
    expect(checkValue(colombianTopUp, "abc")).toBe("Enter a value.");
  });

  test("a bulk row's grid message names the face currency", () => {
    expect(describeGrid({ minimumValue: 5000, maximumValue: 100000, valueStep: 1000 }, "COP")).toBe(
      "between COP 5000 and COP 100000, in steps of 1000",
    );
  });
});
