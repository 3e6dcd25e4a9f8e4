import { minorToDecimal } from "@/lib/money";
import { accountOf, type BookAccounts } from "./accounts";
import type { JournalLine } from "./journal-lines";

type Cells = (string | number)[];
type Format = {
  label: string;
  short: string;
  header: readonly string[];
  cells: (line: JournalLine, accounts: BookAccounts) => Cells;
};

/** `2026-10-05` → `05/10/2026` (Xero) or `10/05/2026` (QuickBooks Online, US order). */
const dayMonthYear = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const monthDayYear = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;
const money = (minor: bigint, currency: string) => (minor === 0n ? "" : minorToDecimal(minor, currency));

/** The references in words, for formats that have no columns of their own for them. */
function withReferences(line: JournalLine): string {
  const refs = [
    line.orderId && `order ${line.orderId}`,
    line.clientReference && `ref ${line.clientReference}`,
    line.depositId && `deposit ${line.depositId}`,
    line.withdrawalId && `withdrawal ${line.withdrawalId}`,
  ].filter(Boolean);
  return refs.length ? `${line.description} (${refs.join(", ")})` : line.description;
}

/** One journal per day and currency: its name in the plain file and Xero's narration, its number in QuickBooks. */
export const journalName = (line: JournalLine) => `Wallet ${line.date} ${line.currency}`;

/**
 * The three files (docs/decisions/2026-11-29-accounting-export.md says where each column set
 * comes from): the plain journal, Xero's manual-journal import and QuickBooks Online's
 * journal-entry import, their headers exactly as documented.
 */
export const JOURNAL_FORMATS = {
  plain: {
    label: "Journal (CSV)",
    short: "Journal CSV",
    header: [
      "date",
      "journal",
      "account_code",
      "account_name",
      "debit",
      "credit",
      "currency",
      "description",
      "order_id",
      "client_reference",
      "deposit_id",
      "withdrawal_id",
      "late",
    ],
    cells: (line, accounts) => {
      const account = accountOf(accounts, line.account);
      return [
        line.date,
        journalName(line),
        account.code,
        account.name,
        money(line.debitMinor, line.currency),
        money(line.creditMinor, line.currency),
        line.currency,
        line.description,
        line.orderId,
        line.clientReference,
        line.depositId,
        line.withdrawalId,
        line.late ? "yes" : "no",
      ];
    },
  },
  xero: {
    label: "Xero manual journals",
    short: "Xero",
    header: [
      "Narration",
      "Date",
      "Description",
      "AccountCode",
      "TaxRate",
      "Amount",
      "TrackingName1",
      "TrackingOption1",
      "TrackingName2",
      "TrackingOption2",
    ],
    cells: (line, accounts) => [
      journalName(line),
      dayMonthYear(line.date),
      withReferences(line),
      accountOf(accounts, line.account).code,
      accounts.xeroTaxRate,
      // Xero reads a positive amount as a debit and a negative one as a credit.
      minorToDecimal(line.debitMinor - line.creditMinor, line.currency),
      "",
      "",
      "",
      "",
    ],
  },
  qbo: {
    label: "QuickBooks Online journal entries",
    short: "QuickBooks Online",
    header: ["JournalNo", "JournalDate", "AccountName", "Debits", "Credits", "Description", "Name"],
    cells: (line, accounts) => [
      `W${line.date.replaceAll("-", "")}${line.currency}`,
      monthDayYear(line.date),
      accountOf(accounts, line.account).name,
      money(line.debitMinor, line.currency),
      money(line.creditMinor, line.currency),
      withReferences(line),
      "",
    ],
  },
} as const satisfies Record<string, Format>;

export type JournalFormat = keyof typeof JOURNAL_FORMATS;
export const JOURNAL_FORMAT_NAMES = Object.keys(JOURNAL_FORMATS) as JournalFormat[];
