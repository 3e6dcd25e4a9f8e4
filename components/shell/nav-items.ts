import type { Permission } from "@/lib/auth/permissions";

export type NavItem = { href: string; label: string; permission: Permission };

/** The sidebar, in order. An item shows only to people holding its permission. */
export const NAV_ITEMS: NavItem[] = [
  { href: "/catalog", label: "Catalog", permission: "catalog.read" },
  { href: "/orders", label: "Orders", permission: "orders.read" },
  { href: "/wallet", label: "Wallet", permission: "wallet.read" },
  { href: "/withdrawals", label: "Withdrawals", permission: "withdrawals.read" },
  { href: "/reports", label: "Reports", permission: "reports.read" },
  { href: "/reports/journal", label: "Accounting export", permission: "books.read" },
  { href: "/spend-approvals", label: "Spend approvals", permission: "spend.read" },
  { href: "/spend-limits", label: "Spend limits", permission: "spend.limits" },
  { href: "/audit", label: "Audit log", permission: "audit.read" },
  { href: "/events", label: "Events", permission: "events.read" },
  { href: "/staff", label: "Staff", permission: "staff.read" },
  { href: "/settings", label: "Settings", permission: "settings.read" },
];
