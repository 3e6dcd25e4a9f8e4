import type { SettingKey } from "./schema";

/**
 * Each setting's label, as Settings shows it. Apart from the schema so that the settings form
 * (a client component) can show them without taking zod into the browser
 * (docs/decisions/0012-first-load-only-what-is-needed.md).
 */
export const SETTING_LABELS: Record<SettingKey, string> = {
  orderConfirmationAmount: "Second confirmation for orders above",
  lowBalance: "Low-balance warning below",
  revealQuotaPerHour: "Code reveals per person per hour",
  revealViewSeconds: "Revealed codes stay visible for (seconds)",
  withdrawalApprovalHours: "Withdrawal requests expire unless approved within (hours)",
  spendApprovalAmount: "Orders above this need an approver (empty: none)",
  payoutDetailsName: "Payout details registered with the Issuing Service (their name, shown on withdrawal approvals)",
  spendApprovalHours: "Spend approval requests expire unless decided within (hours)",
  upstreamMoneyReservePercent: "Upstream calls kept for orders, reveals and withdrawals (% of each minute)",
  upstreamPersonSharePercent: "Upstream reads one person may use (% of each minute)",
  upstreamPersonLookupsPerMinute: "Lookups of unknown order ids and references per person per minute",
  catalogWatchThresholdPercent: "Tell watchers of price moves above (%)",
  bookAccounts: "Accounts of the accounting export",
};
