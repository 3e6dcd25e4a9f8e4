/**
 * The names of the notification kinds, apart from their definitions (kinds.ts) so that a client
 * component (the bell, the email choices) can name a kind without bundling every composer.
 */
export const NOTIFICATION_KINDS = [
  "approval.waiting",
  "approval.decided",
  "approval.expiring",
  "wallet.low_balance",
  "orders.failed",
  "reveal.quota_alert",
  "upstream.share_repeated",
  "reconciliation.difference",
  "import.finished",
  "import.stuck",
  "upstream.key_refused",
  "upstream.budget_exhausted",
  "catalog.changed",
  "books.journal_ready",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The kinds that ask someone to decide before a deadline: a digest can hold them past it. */
export const APPROVAL_KINDS: readonly NotificationKind[] = ["approval.waiting", "approval.expiring"];

/** Past this the bell says "99+": the count stops there, so a long-unread inbox costs no more to count. */
export const UNREAD_CAP = 100;
