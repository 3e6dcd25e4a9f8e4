import { describe, expect, test } from "vitest";
import { toCsvRow } from "@/lib/csv";

describe("CSV export cells", () => {
  test("quotes commas, quotes and newlines", () => {
    expect(toCsvRow(["a,b", 'say "hi"', "line\nbreak"])).toBe('"a,b","say ""hi""","line\nbreak"\r\n');
  });

  test("neutralises spreadsheet formulas", () => {
    expect(toCsvRow(['=HYPERLINK("x")', "+1", "@SUM(A1)"])).toBe('"\'=HYPERLINK(""x"")",\'+1,\'@SUM(A1)\r\n');
  });

  test("leaves negative numbers alone", () => {
    expect(toCsvRow([-5, ""])).toBe("-5,\r\n");
  });

  test("leaves a negative decimal amount written as text alone, but not a formula that starts like one", () => {
    expect(toCsvRow(["-2.72", "-1+2", "-A1"])).toBe("-2.72,'-1+2,'-A1\r\n");
  });
});
