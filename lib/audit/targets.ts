import { can, type Permission } from "@/lib/auth/permissions";

type TargetPage = {
  href: (id: string) => string;
  /** Who may open that page: readers without it see the target without a link. */
  permission: Permission;
};

/**
 * How the audit page shows a target's id: "person", a staff id read as the person's name;
 * "quoted", an id people quote (an order's, a webhook event's), shortened with the whole of it
 * kept; "words", an id that is words already (a setting's key), in full; "internal", a row id
 * nobody quotes, left out (the kind in words and the link say it).
 */
type TargetId = "person" | "quoted" | "words" | "internal";

/**
 * What an audit entry can be about. The key is the row's `targetType` as stored (rows written
 * before this table used the same words, so they read the same way); `words` is how the audit
 * page names it; `id`, how it shows the id; `page`, where one shows it.
 */
export const AUDIT_TARGETS = {
  session: { words: "session", id: "internal" },
  staff: { words: "staff", id: "person", page: { href: () => "/staff", permission: "staff.read" } },
  access_link: { words: "invitation or reset link", id: "internal", page: { href: () => "/staff", permission: "staff.read" } },
  setting: { words: "setting", id: "words", page: { href: () => "/settings", permission: "settings.read" } },
  order: {
    words: "order",
    id: "quoted",
    page: { href: (id) => `/orders/${encodeURIComponent(id)}`, permission: "orders.read" },
  },
  "idempotency-key": { words: "idempotency key", id: "quoted" },
  "order-import": { words: "order import", id: "words", page: { href: () => "/settings", permission: "settings.read" } },
  bulk_order: {
    words: "bulk order",
    id: "internal",
    page: { href: (id) => `/orders/bulk/${encodeURIComponent(id)}`, permission: "orders.read" },
  },
  spend_request: {
    words: "spend request",
    id: "internal",
    // Its card on the approvals page carries the request's id.
    page: { href: (id) => `/spend-approvals#${encodeURIComponent(id)}`, permission: "spend.read" },
  },
  spend_limit: { words: "spend limit", id: "words", page: { href: () => "/spend-limits", permission: "spend.limits" } },
  withdrawal: { words: "withdrawal", id: "internal", page: { href: () => "/withdrawals", permission: "withdrawals.read" } },
  "deposit-address": { words: "deposit address", id: "quoted", page: { href: () => "/wallet", permission: "wallet.read" } },
  notification_delivery: {
    words: "notification delivery",
    id: "internal",
    page: { href: () => "/events/outbox?state=failed", permission: "notifications.outbox" },
  },
  webhook_event: { words: "webhook event", id: "quoted", page: { href: () => "/events", permission: "events.read" } },
  book_period: { words: "month's books", id: "words", page: { href: () => "/reports/journal", permission: "books.read" } },
  upstream_key: { words: "upstream key", id: "words", page: { href: () => "/settings", permission: "settings.read" } },
} satisfies Record<string, { words: string; id: TargetId; page?: TargetPage }>;

export type AuditTargetKind = keyof typeof AUDIT_TARGETS;

export function isAuditTargetKind(value: string): value is AuditTargetKind {
  return Object.hasOwn(AUDIT_TARGETS, value);
}

/**
 * A target as the audit page shows it: the kind in words, a person's name, the id when people
 * quote it (`short`: shortened on the page, whole for copying and screen readers), and a link.
 */
export type AuditTargetView = { type: string; name?: string; id: string | null; short: boolean; href?: string };

/**
 * A row's target as the audit page shows it, with a link to the page that shows it when the
 * reader may open that page. A kind the table does not know (an old row's) reads as stored,
 * its id shortened. `names`: staff id → name.
 */
export function auditTargetView(
  targetType: string | null,
  targetId: string | null,
  readerRoles: readonly string[],
  names: ReadonlyMap<string, string> = new Map(),
): AuditTargetView | null {
  if (!targetType) return null;
  if (!isAuditTargetKind(targetType)) return { type: targetType.replace(/[_-]/g, " "), id: targetId, short: true };
  const kind: { words: string; id: TargetId; page?: TargetPage } = AUDIT_TARGETS[targetType];
  const href = kind.page && targetId && can(readerRoles, kind.page.permission) ? kind.page.href(targetId) : undefined;
  const name = kind.id === "person" && targetId ? names.get(targetId) : undefined;
  const id = kind.id === "quoted" || kind.id === "words" ? targetId : null;
  return { type: kind.words, ...(name ? { name } : {}), id, short: kind.id === "quoted", href };
}
