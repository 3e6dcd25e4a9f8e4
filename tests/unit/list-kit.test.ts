import { describe, expect, test } from "vitest";
import { streamCsv } from "@/lib/csv-stream";
import { cappedCount, keysetPage, readTimeCursor, timeCursor } from "@/lib/db/keyset-page";
import { countText, totalLine } from "@/components/ui/pager";
import { utcTime } from "@/components/ui/utc-time";

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("CSV export stream", () => {
  test("writes the header, then every batch in order, each cell formula-safe", async () => {
    const batches: Record<string, { rows: string[][]; next: string | null }> = {
      start: { rows: [["1", "=cmd"]], next: "b" },
      b: { rows: [["2", "plain"]], next: null },
    };
    const csv = await text(await streamCsv<string>(["id", "note"], async (after) => batches[after ?? "start"]!));
    expect(csv).toBe("id,note\r\n1,'=cmd\r\n2,plain\r\n");
  });

  test("a batch with no rows (a day without orders) does not end the download early", async () => {
    const batches: Record<string, { rows: string[][]; next: string | null }> = {
      start: { rows: [], next: "b" },
      b: { rows: [], next: "c" },
      c: { rows: [["3", "after two empty batches"]], next: "d" },
      d: { rows: [], next: null },
    };
    const csv = await text(await streamCsv<string>(["id", "note"], async (after) => batches[after ?? "start"]!));
    expect(csv).toBe("id,note\r\n3,after two empty batches\r\n");
  });

  test("a first batch that fails is an error before any answer is sent", async () => {
    await expect(streamCsv(["id"], async () => Promise.reject(new Error("refused filter")))).rejects.toThrow("refused filter");
  });
});

describe("keyset pages", () => {
  test("a read of one row more than the page says there is a next page, from the last row shown", () => {
    expect(keysetPage([5, 4, 3], 2, String)).toEqual({ rows: [5, 4], nextCursor: "4" });
    expect(keysetPage([5, 4], 2, String)).toEqual({ rows: [5, 4], nextCursor: null });
  });

  test("a time cursor reads back the same time and id", () => {
    const at = new Date("2026-11-22T05:12:03.123Z");
    expect(readTimeCursor(timeCursor(at, "ord.with.dots"))).toEqual({ at, id: "ord.with.dots" });
  });

  test("counts stop at 10,000 and say so", async () => {
    expect(await cappedCount(async (take) => Math.min(take, 42))).toEqual({ total: 42, capped: false });
    expect(await cappedCount(async (take) => Math.min(take, 50_000))).toEqual({ total: 10_000, capped: true });
  });
});

describe("list texts", () => {
  test("the total line names the count, the filter and the page size", () => {
    expect(countText(1, ["order", "orders"])).toBe("1 order");
    expect(countText(10_000, ["entry", "entries"], true)).toBe("10,000+ entries");
    expect(totalLine({ total: 1234, noun: ["event", "events"], filtered: true, shown: 50 })).toBe(
      "1,234 events match these filters; showing 50 at a time, newest first.",
    );
    expect(totalLine({ total: 3, noun: ["event", "events"], filtered: false, shown: 3 })).toBe("3 events.");
    expect(totalLine({ total: 1, noun: ["order", "orders"], filtered: true, shown: 1 })).toBe("1 order matches these filters.");
    expect(totalLine({ total: 1_000, noun: ["order", "orders"], capped: true, filtered: true, shown: 50 })).toBe(
      "1,000+ orders match these filters; showing 50 at a time, newest first.",
    );
  });

  test("UTC times read the same everywhere, to the minute or second, with or without the zone", () => {
    expect(utcTime("2026-11-22T05:12:03.123Z")).toBe("2026-11-22 05:12 UTC");
    expect(utcTime(new Date("2026-11-22T05:12:03.123Z"), "second", true)).toBe("2026-11-22 05:12:03");
    expect(utcTime(null)).toBe("—");
  });
});
