import { describe, expect, test } from "vitest";
import { toCsvRow } from "@/lib/csv";
import { clientAddress } from "@/lib/http/client-address";

describe("CSV export cells", () => {
  test("quotes commas, quotes and newlines", () => {
    expect(toCsvRow(["a,b", 'say "hi"', "line\nbreak"])).toBe('"a,b","say ""hi""","line\nbreak"\r\n');
  });

  test("neutralises spreadsheet formulas", () => {
    expect(toCsvRow(["=HYPERLINK(\"x\")", "+1", "@SUM(A1)"])).toBe("\"'=HYPERLINK(\"\"x\"\")\",'+1,'@SUM(A1)\r\n");
  });

  test("leaves negative numbers alone", () => {
    expect(toCsvRow([-5, ""])).toBe("-5,\r\n");
  });
});

describe("source address", () => {
  test("takes the address the nearest proxy appended, not one the client wrote", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "6.6.6.6, 203.0.113.9" }))).toBe("203.0.113.9");
  });

  test("unwraps IPv4-mapped IPv6", () => {
    expect(clientAddress({ "x-forwarded-for": "::ffff:127.0.0.1" })).toBe("127.0.0.1");
  });

  test("is null when unknown", () => {
    expect(clientAddress(new Headers())).toBeNull();
  });
});
