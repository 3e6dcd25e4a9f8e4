import { can, type Permission } from "@/lib/auth/permissions";

type TargetPage = {
  href: (id: string) => string;
  /** Who may open that page: readers without it see the target without a link. */
  permission: Permission;
};

/**
 * What an audit entry can be about. The key is the row's `targetType` as stored (rows written
 * before this table used the same words, so they read the same way); `words` is how the audit
 * page names it; `page`, where one shows it.
 */
export const AUDIT_TARGETS = {
  session: { words: "session" },
  staff: { words: "staff", page: { href: () => "/staff", permission: "staff.read" } },
  access_link: { words: "invitation or reset link", page: { href: () => "/staff", permission: "staff.read" } },
  setting: { words: "setting", page: { href: () => "/settings", permission: "settings.read" } },
  order: { words: "order", page: { href: (id) => `/orders/${encodeURIComponent(id)}`, permission: "orders.read" } },
  "idempotency-key": { words: "idempotency key" },
  "order-import": { words: "order import", page: { href: () => "/settings", permission: "settings.read" } },
  bulk_order: {
    words: "bulk order",
    page: { href: (id) => `/orders/bulk/${encodeURIComponent(id)}`, permission: "orders.read" },
  },
  spend_request: { words: "spend request", page: { href: () => "/spend-approvals", permission: "spend.read" } },
  spend_limit: { words: "spend limit", page: { href: () => "/spend-limits", permission: "spend.limits" } },
  withdrawal: { words: "withdrawal", page: { href: () => "/withdrawals", permission: "withdrawals.read" } },
  "deposit-address": { words: "deposit address", page: { href: () => "/wallet", permission: "wallet.read" } },
  notification_delivery: {
    words: "notification delivery",
    page: { href: () => "/events/outbox?state=failed", permission: "notifications.outbox" },
  },
  webhook_event: { words: "webhook event", page: { href: () => "/events", permission: "events.read" } },
  upstream_key: { words: "upstream key", page: { href: () => "/settings", permission: "settings.read" } },
} satisfies Record<string, { words: string; page?: TargetPage }>;

export type AuditTargetKind = keyof typeof AUDIT_TARGETS;

export function isAuditTargetKind(value: string): value is AuditTargetKind {
  return Object.hasOwn(AUDIT_TARGETS, value);
}

export type AuditTargetView = { type: string; id: string | null; href?: string };

/**
 * A row's target as the audit page shows it: the kind in words, the id, and a link to the page
 * that shows it when the reader may open that page. A kind the table does not know (an old
 * row's) reads as stored.
 */
export function auditTargetView(
  targetType: string | null,
  targetId: string | null,
  readerRoles: readonly string[],
): AuditTargetView | null {
  if (!targetType) return null;
  if (!isAuditTargetKind(targetType)) return { type: targetType.replace(/[_-]/g, " "), id: targetId };
  const kind: { words: string; page?: TargetPage } = AUDIT_TARGETS[targetType];
  const href = kind.page && targetId && can(readerRoles, kind.page.permission) ? kind.page.href(targetId) : undefined;
  return { type: kind.words, id: targetId, href };
}
