import { z } from "zod";
import { bookAccountsSchema, DEFAULT_BOOK_ACCOUNTS } from "@/lib/books/accounts";
import { moneyAmount, singleLineText } from "@/lib/validation";

/**
 * The admin-editable thresholds staff work within. Stored in the Setting table (one row
 * per key), validated here on every write and read; a missing or invalid stored value
 * falls back to its default.
 */
/** One figure for every currency (or a threshold per currency): zero or more, at most 2 decimals. */
const decimalAmount = moneyAmount({ allowZero: true, maxDecimals: 2 });

/** A whole number from `min` to `max`, its messages naming the unit (["hour", "hours"]) when it has one. */
function wholeNumber(min: number, max: number, unit?: [string, string]) {
  const amount = (n: number) => (unit ? `${n} ${n === 1 ? unit[0] : unit[1]}` : String(n));
  return z
    .number({ error: "Enter a whole number." })
    .int("Enter a whole number.")
    .min(min, `At least ${amount(min)}.`)
    .max(max, `At most ${amount(max)}.`);
}

export const settingsSchema = z.object({
  /** Orders whose total is above this (in the order's currency) ask for a second confirmation. */
  orderConfirmationAmount: decimalAmount,
  /** Per currency: below this available balance, staff who can order see a warning. */
  lowBalance: z.record(z.string().regex(/^[A-Z]{3}$/, "Use a three-letter currency code."), decimalAmount),
  /** Reveals one person may make in an hour. */
  revealQuotaPerHour: wholeNumber(1, 1000),
  /** How long revealed codes stay on screen. */
  revealViewSeconds: wholeNumber(10, 600, ["second", "seconds"]),
  /** A withdrawal request not approved within this many hours expires. */
  withdrawalApprovalHours: wholeNumber(1, 168, ["hour", "hours"]),
  /** Orders (a bulk file as a whole) above this, in their currency, wait for an approver's yes; empty: no threshold. */
  spendApprovalAmount: z.union([z.literal(""), decimalAmount]),
  /**
   * The name of the payout details registered with the Issuing Service, as the merchant dashboard
   * shows them (the API never names them): shown to whoever approves a withdrawal. Empty: not named.
   */
  payoutDetailsName: singleLineText().trim().max(120, "Use at most 120 characters."),
  /** A spend approval request not decided within this many hours expires and is never sent. */
  spendApprovalHours: wholeNumber(1, 168, ["hour", "hours"]),
  /** Share of every minute's upstream calls kept for placing orders, reveals and withdrawals (percent of the limit). */
  upstreamMoneyReservePercent: wholeNumber(0, 50),
  /** One person's upstream reads a minute, as a percent of the limit (past it: 429 for that person). */
  upstreamPersonSharePercent: wholeNumber(5, 100),
  /** One person's lookups of order ids and references the app does not know, a minute. */
  upstreamPersonLookupsPerMinute: wholeNumber(1, 120),
  /** A watched product's price move past this (percent, either way) is told to its watchers (lib/catalog-watch). */
  catalogWatchThresholdPercent: wholeNumber(1, 50),
  /** The chart-of-accounts codes and names the accounting export posts to (lib/books/accounts.ts). */
  bookAccounts: bookAccountsSchema,
});

export type Settings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof Settings;

export const DEFAULT_SETTINGS: Settings = {
  orderConfirmationAmount: "500.00",
  lowBalance: { USD: "1000.00", EUR: "1000.00", GBP: "1000.00" },
  revealQuotaPerHour: 20,
  revealViewSeconds: 60,
  withdrawalApprovalHours: 24,
  spendApprovalAmount: "",
  payoutDetailsName: "",
  spendApprovalHours: 24,
  upstreamMoneyReservePercent: 20,
  upstreamPersonSharePercent: 25,
  upstreamPersonLookupsPerMinute: 10,
  catalogWatchThresholdPercent: 2,
  bookAccounts: DEFAULT_BOOK_ACCOUNTS,
};
