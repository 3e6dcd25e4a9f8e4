import { describe, expect, test } from "vitest";
import { MAX_CSV_BYTES, MAX_CSV_ROWS, parseBulkCsv } from "@/lib/bulk-orders/parse-csv";
import { readRowInput } from "@/lib/bulk-orders/row-input";
import { isOnGrid } from "@/lib/bulk-orders/value-grid";
import { isAppError } from "@/lib/errors";

const HEADER = "productId,variantId,value,quantity,clientReference,phoneNumber";

function fileError(text: string): string {
  try {
    parseBulkCsv(text);
  } catch (error) {
    if (isAppError(error)) {
      expect(error.code).toBe("invalid_request");
      return error.fieldErrors?.csv?.[0] ?? "";
    }
    throw error;
  }
  throw new Error("expected the file to be refused");
}

describe("the bulk-order CSV parser", () => {
  test("reads rows by header name, in any column order and case, numbering rows as a spreadsheet does", () => {
    const rows = parseBulkCsv("Quantity,CLIENTREFERENCE,productid,variantId\r\n2,ref-1,p1,v1\r\n1,ref-2,p2,v9\r\n");
    expect(rows).toEqual([
      {
        rowNumber: 2,
        cells: { productId: "p1", variantId: "v1", value: "", quantity: "2", clientReference: "ref-1", phoneNumber: "" },
        errors: {},
      },
      {
        rowNumber: 3,
        cells: { productId: "p2", variantId: "v9", value: "", quantity: "1", clientReference: "ref-2", phoneNumber: "" },
        errors: {},
      },
    ]);
  });

  test("follows RFC 4180 quoting: commas, doubled quotes and line breaks inside quoted fields", () => {
    const rows = parseBulkCsv(`${HEADER}\n"p,1",v1,,1,"say ""hi""
on two lines",\n`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.cells.productId).toBe("p,1");
    expect(rows[0]!.cells.clientReference).toBe('say "hi"\non two lines');
    expect(rows[0]!.errors).toEqual({});
  });

  test("strips a byte-order mark, trims cells, skips blank lines and keeps row numbers true to the file", () => {
    const rows = parseBulkCsv(`\uFEFF${HEADER}\n p1 , v1 ,, 3 , r1 ,\n\n,,,,,\np2,v2,,1,r2,\n`);
    expect(rows.map((r) => [r.rowNumber, r.cells.productId, r.cells.quantity])).toEqual([
      [2, "p1", "3"],
      [5, "p2", "1"],
    ]);
  });

  test("a file without a final line break reads its last row", () => {
    expect(parseBulkCsv(`${HEADER}\np1,v1,,1,r1,`)).toHaveLength(1);
  });

  test("a row with the wrong number of fields, or a stray quote, is an error on that row only", () => {
    const rows = parseBulkCsv(`${HEADER}\np1,v1,,1,r1\np2,v2,,1,r"2,\n"p3"x,v3,,1,r3,\np4,v4,,1,r4,\n`);
    expect(rows.map((r) => r.errors._row?.[0] ?? null)).toEqual([
      "Has 5 fields; the header has 6.",
      'A quote (") may appear only inside a quoted field, doubled ("").',
      "Text follows a closing quote; put the whole field in quotes.",
      null,
    ]);
  });

  test("the file as a whole is refused with one clear message when it cannot be read", () => {
    expect(fileError("")).toMatch(/empty/);
    expect(fileError("\n\n")).toMatch(/empty/);
    expect(fileError(HEADER + "\n")).toMatch(/no orders under it/);
    expect(fileError("productId,colour,quantity,clientReference,variantId\np,red,1,r,v")).toMatch(/Unknown column “colour”/);
    expect(fileError("productId,quantity,variantId\np,1,v")).toMatch(/no clientReference column/);
    expect(fileError("productId,quantity,clientReference\np,1,r")).toMatch(/variantId column, a value column, or both/);
    expect(fileError("productId,productId,quantity,clientReference,value\n")).toMatch(/appears twice/);
    expect(fileError("productId;variantId;quantity;clientReference\np;v;1;r")).toMatch(/separated by commas/);
    expect(fileError(`${HEADER}\np1,v1,,1,"never closed,\n`)).toMatch(/Row 2: a quoted field is never closed/);
  });

  test("size is bounded: at most 500 rows and 256 KiB", () => {
    const row = (i: number) => `p${i},v,,1,r${i},`;
    expect(parseBulkCsv([HEADER, ...Array.from({ length: MAX_CSV_ROWS }, (_, i) => row(i))].join("\n"))).toHaveLength(
      MAX_CSV_ROWS,
    );
    expect(fileError([HEADER, ...Array.from({ length: MAX_CSV_ROWS + 1 }, (_, i) => row(i))].join("\n"))).toMatch(/at most 500/);
    expect(fileError(`${HEADER}\np,v,,1,"${"x".repeat(MAX_CSV_BYTES)}",`)).toMatch(/larger than 256 KiB/);
  });
});

describe("the shape of one row", () => {
  const cells = (over: Partial<Record<string, string>>) => ({
    productId: "p",
    variantId: "v",
    value: "",
    quantity: "1",
    clientReference: "r",
    phoneNumber: "",
    ...over,
  });

  test("a complete variant row reads cleanly; a formatted phone number is normalised", () => {
    expect(readRowInput(cells({ phoneNumber: "+44 (7700) 900-123" }))).toEqual({
      input: { productId: "p", variantId: "v", value: null, quantity: 1, clientReference: "r", phoneNumber: "+447700900123" },
      errors: {},
    });
  });

  test("each field says what is wrong with it", () => {
    const { input, errors } = readRowInput(
      cells({ productId: "", variantId: "", value: "", quantity: "2.5", clientReference: "", phoneNumber: "07700 900123" }),
    );
    expect(input).toBeNull();
    expect(Object.keys(errors).sort()).toEqual(["clientReference", "phoneNumber", "productId", "quantity", "variantId"]);
    expect(readRowInput(cells({ value: "25" })).errors.value).toEqual(["Give a variant id or a value, not both."]);
    expect(readRowInput(cells({ variantId: "", value: "1e3" })).errors.value?.[0]).toMatch(/plain number/);
    expect(readRowInput(cells({ variantId: "", value: "0.00" })).errors.value?.[0]).toMatch(/above zero/);
    expect(readRowInput(cells({ quantity: "0" })).errors.quantity?.[0]).toMatch(/at least 1/);
    expect(readRowInput(cells({ quantity: "101" })).errors.quantity?.[0]).toMatch(/At most 100/);
  });
});

describe("values on a product's grid", () => {
  const grid = { minimumValue: 5, maximumValue: 100, valueStep: 5 };
  test("exact decimal arithmetic, no float surprises", () => {
    expect(["5", "10", "100", "55.00"].map((v) => isOnGrid(v, grid))).toEqual([true, true, true, true]);
    expect(["4", "7", "105", "10.01"].map((v) => isOnGrid(v, grid))).toEqual([false, false, false, false]);
    const cents = { minimumValue: 0.1, maximumValue: 1, valueStep: 0.1 };
    expect(isOnGrid("0.3", cents)).toBe(true); // 0.1 + 0.2 !== 0.3 in floats
    expect(isOnGrid("0.35", cents)).toBe(false);
  });
});
