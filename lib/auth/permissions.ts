import { isOneOf } from "@/lib/is-one-of";

/**
 * The one role → permission table. Every domain function checks a permission from here
 * (deny by default); pages use the same table only to hide what a person may not do.
 */
export const ROLES = ["admin", "buyer", "support", "finance", "approver", "viewer"] as const;
export type RoleName = (typeof ROLES)[number];

export const ROLE_LABELS: Record<RoleName, string> = {
  admin: "Admin",
  buyer: "Buyer",
  support: "Support",
  finance: "Finance",
  approver: "Approver",
  viewer: "Viewer",
};

export const ROLE_DESCRIPTIONS: Record<RoleName, string> = {
  admin: "Manages staff and settings",
  buyer: "Quotes and places orders",
  support: "Reads orders and reveals codes",
  finance: "Watches the wallet, requests withdrawals and closes months",
  approver: "Approves or rejects withdrawals and large orders",
  viewer: "Reads everything, changes nothing",
};

const TABLE = {
  "catalog.read": ["admin", "buyer", "support", "finance", "approver", "viewer"],
  "catalog.watch": ["admin", "buyer", "finance"],
  "catalog.watch-workspace": ["admin"],
  "orders.read": ["admin", "buyer", "support", "finance", "approver", "viewer"],
  "orders.create": ["buyer"],
  "codes.reveal": ["support"],
  "wallet.read": ["admin", "finance", "approver", "viewer"],
  "wallet.deposit-address": ["finance"],
  "withdrawals.read": ["admin", "finance", "approver", "viewer"],
  "withdrawals.request": ["finance"],
  "withdrawals.approve": ["approver"],
  "withdrawals.cancel": ["finance", "approver"],
  "books.read": ["admin", "finance", "viewer"],
  "books.close": ["finance"],
  "spend.read": ["admin", "buyer", "approver", "viewer"],
  "spend.approve": ["approver"],
  "spend.limits": ["admin"],
  /** The spend report: a buyer's holds only their own orders; reports.workspace opens every order. */
  "reports.read": ["admin", "buyer", "finance"],
  "reports.workspace": ["admin", "finance"],
  "audit.read": ["admin", "viewer"],
  "staff.read": ["admin"],
  "staff.manage": ["admin"],
  "staff.invite": ["admin"],
  "staff.reset-password": ["admin"],
  "settings.read": ["admin"],
  "settings.manage": ["admin"],
  "events.read": ["admin"],
  "events.manage": ["admin"],
  "notifications.outbox": ["admin"],
} as const satisfies Record<string, readonly RoleName[]>;

export type Permission = keyof typeof TABLE;
export const PERMISSIONS = Object.keys(TABLE) as Permission[];

export function can(roles: readonly string[], permission: Permission): boolean {
  const allowed: readonly string[] = TABLE[permission] ?? [];
  return roles.some((role) => allowed.includes(role));
}

export function isRole(value: string): value is RoleName {
  return isOneOf(ROLES, value);
}
