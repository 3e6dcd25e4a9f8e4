import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { toCsvRow } from "@/lib/csv";
import { DEFAULT_BOOK_ACCOUNTS } from "@/lib/books/accounts";
import { JOURNAL_FORMATS, JOURNAL_FORMAT_NAMES } from "@/lib/books/journal-formats";
import { journalLines, type BookedMovement } from "@/lib/books/journal-lines";

/** One movement of each kind the journal books, a late one and a correction. */
const MOVEMENTS: BookedMovement[] = [
  {
    sourceId: "evt_credit_1",
    kind: "credit",
    currency: "USD",
    at: new Date("2026-10-01T08:00:00Z"),
    deltaMinor: 500_000n,
    feeMinor: null,
    reference: null,
    late: false,
  },
  {
    sourceId: "ord_1",
    kind: "order",
    currency: "USD",
    at: new Date("2026-10-02T09:30:00Z"),
    deltaMinor: -2_500n,
    feeMinor: null,
    reference: "PO-1001",
    late: false,
  },
  {
    sourceId: "ord_2",
    kind: "order",
    currency: "USD",
    at: new Date("2026-10-02T10:00:00Z"),
    deltaMinor: -1_000n,
    feeMinor: null,
    reference: "PO-1002",
    late: false,
  },
  {
    sourceId: "ord_2",
    kind: "order_release",
    currency: "USD",
    at: new Date("2026-10-02T10:05:00Z"),
    deltaMinor: 1_000n,
    feeMinor: null,
    reference: "PO-1002",
    late: false,
  },
  {
    sourceId: "ord_3",
    kind: "refund",
    currency: "EUR",
    at: new Date("2026-10-03T11:00:00Z"),
    deltaMinor: 4_999n,
    feeMinor: null,
    reference: '=HYPERLINK("x")',
    late: false,
  },
  {
    sourceId: "wd_1",
    kind: "withdrawal",
    currency: "USD",
    at: new Date("2026-10-20T12:00:00Z"),
    deltaMinor: -100_000n,
    feeMinor: 1_500n,
    reference: "wdr_up_1",
    late: false,
  },
  {
    sourceId: "wd_2",
    kind: "withdrawal_release",
    currency: "USD",
    at: new Date("2026-10-21T12:00:00Z"),
    deltaMinor: 20_000n,
    feeMinor: 500n,
    reference: "wdr_up_2",
    late: false,
  },
  {
    sourceId: "2026-10-15 USD",
    kind: "reconciliation_difference",
    currency: "USD",
    at: new Date("2026-10-15T23:59:59.999Z"),
    deltaMinor: -123n,
    feeMinor: null,
    reference: null,
    late: false,
  },
  {
    sourceId: "ord_0",
    kind: "order_release",
    currency: "GBP",
    at: new Date("2026-09-30T23:00:00Z"),
    deltaMinor: 750n,
    feeMinor: null,
    reference: "PO-0999",
    late: true,
  },
  {
    sourceId: "ord_4",
    kind: "order",
    currency: "USD",
    at: new Date("2026-10-05T10:00:00Z"),
    deltaMinor: 300n,
    feeMinor: null,
    reference: "PO-1004",
    late: false,
  },
];

const golden = (format: string) => path.join(__dirname, "..", "fixtures", "journal", `${format}.csv`);

function render(format: keyof typeof JOURNAL_FORMATS): string {
  const spec = JOURNAL_FORMATS[format];
  const lines = MOVEMENTS.flatMap((m) => journalLines(m, m.late ? "2026-10-01" : m.at.toISOString().slice(0, 10)));
  return toCsvRow(spec.header) + lines.map((line) => toCsvRow(spec.cells(line, DEFAULT_BOOK_ACCOUNTS))).join("");
}

describe("journal files", () => {
  test.each(JOURNAL_FORMAT_NAMES)("%s: the file is the golden file, byte for byte", (format) => {
    // UPDATE_GOLDEN=1 rewrites the files; review the diff before committing it.
    if (process.env.UPDATE_GOLDEN) writeFileSync(golden(format), render(format));
    expect(render(format)).toBe(readFileSync(golden(format), "utf8"));
  });

  test("each format carries exactly its documented header and parses with csv-parse", () => {
    // As Xero's and Intuit's help pages list them (docs/decisions/2026-11-29-accounting-export.md).
    const xero =
      "Narration,Date,Description,AccountCode,TaxRate,Amount,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2";
    expect(JOURNAL_FORMATS.xero.header.join(",")).toBe(xero);
    expect(JOURNAL_FORMATS.qbo.header.join(",")).toBe("JournalNo,JournalDate,AccountName,Debits,Credits,Description,Name");
    for (const format of JOURNAL_FORMAT_NAMES) {
      const rows = parse(readFileSync(golden(format), "utf8"), { columns: true }) as Record<string, string>[];
      expect(Object.keys(rows[0]!)).toEqual([...JOURNAL_FORMATS[format].header]);
      expect(rows.length).toBeGreaterThanOrEqual(MOVEMENTS.length * 2);
    }
  });

  test("every movement's lines balance, a withdrawal's fee goes to fees and the rest to bank clearing", () => {
    for (const m of MOVEMENTS) {
      const lines = journalLines(m, "2026-10-01");
      expect(lines.reduce((sum, l) => sum + l.debitMinor - l.creditMinor, 0n)).toBe(0n);
    }
    const withdrawal = journalLines(MOVEMENTS[5]!, "2026-10-20");
    expect(withdrawal.map((l) => [l.account, l.debitMinor, l.creditMinor])).toEqual([
      ["bankClearing", 98_500n, 0n],
      ["fees", 1_500n, 0n],
      ["wallet", 0n, 100_000n],
    ]);
    expect(journalLines(MOVEMENTS[9]!, "2026-10-05")[0]!.description).toBe(
      "Correction: Order placed, paid from the supplier wallet",
    );
  });
});
