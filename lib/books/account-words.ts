/** The five accounts the journal posts to, in the order Settings lists them (apart from their schema: the Settings form takes no zod). */
export const BOOK_ACCOUNTS = ["wallet", "costOfGoods", "bankClearing", "fees", "suspense"] as const;
export type BookAccount = (typeof BOOK_ACCOUNTS)[number];

export const BOOK_ACCOUNT_WORDS: Record<BookAccount, { label: string; hint: string }> = {
  wallet: { label: "Supplier wallet", hint: "The prepaid balance held at the Issuing Service (an asset)." },
  costOfGoods: { label: "Cost of goods", hint: "What orders cost; failed and refunded orders are taken back." },
  bankClearing: { label: "Bank clearing", hint: "Deposits on their way in, withdrawals on their way to the bank." },
  fees: { label: "Fees", hint: "The Issuing Service's withdrawal fees." },
  suspense: { label: "Suspense", hint: "Differences the daily reconciliation left unexplained." },
};
