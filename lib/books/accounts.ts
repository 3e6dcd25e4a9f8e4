import { z } from "zod";
import { singleLineText } from "@/lib/validation";
import type { BookAccount } from "./account-words";

const code = singleLineText().trim().min(1, "Enter an account code.").max(20, "Use at most 20 characters.");
const name = singleLineText().trim().min(1, "Enter an account name.").max(100, "Use at most 100 characters.");

/**
 * The chart-of-accounts mapping (Setting `bookAccounts`): a code and a name per account (Xero
 * imports by code, QuickBooks Online by name) and the tax rate Xero requires on every line.
 * Flat, so that the settings audit records it as it records every other setting.
 */
export const bookAccountsSchema = z.strictObject({
  walletCode: code,
  walletName: name,
  costOfGoodsCode: code,
  costOfGoodsName: name,
  bankClearingCode: code,
  bankClearingName: name,
  feesCode: code,
  feesName: name,
  suspenseCode: code,
  suspenseName: name,
  xeroTaxRate: singleLineText()
    .trim()
    .min(1, "Enter Xero's name of the rate (e.g. Tax Exempt).")
    .max(60, "Use at most 60 characters."),
});
export type BookAccounts = z.infer<typeof bookAccountsSchema>;

/** Codes in the ranges most small-business charts use (1xxx assets, 5xxx costs, 6xxx expenses, 9xxx suspense). */
export const DEFAULT_BOOK_ACCOUNTS: BookAccounts = {
  walletCode: "1210",
  walletName: "Prepaid supplier wallet",
  costOfGoodsCode: "5000",
  costOfGoodsName: "Cost of goods sold",
  bankClearingCode: "1090",
  bankClearingName: "Bank clearing",
  feesCode: "6100",
  feesName: "Bank and payout fees",
  suspenseCode: "9999",
  suspenseName: "Suspense",
  xeroTaxRate: "Tax Exempt",
};

export function accountOf(accounts: BookAccounts, account: BookAccount): { code: string; name: string } {
  return { code: accounts[`${account}Code`], name: accounts[`${account}Name`] };
}
