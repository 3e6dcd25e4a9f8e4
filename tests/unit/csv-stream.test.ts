import { describe, expect, test } from "vitest";
import { streamCsv } from "@/lib/csv-stream";

describe("streamCsv", () => {
  test("a batch with no rows (a filter left none) does not stall the download: the rows after it still arrive", async () => {
    const batches = [
      { rows: [], next: 1 },
      { rows: [], next: 2 },
      { rows: [["a", 1]], next: 3 },
      { rows: [], next: null },
    ];
    const stream = await streamCsv<number>(["name", "n"], async (after) => batches[after ?? 0]!);
    expect(await new Response(stream).text()).toBe("name,n\r\na,1\r\n");
  });
});
