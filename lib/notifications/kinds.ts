import type { RoleName } from "@/lib/auth/permissions";
import { isOneOf } from "@/lib/is-one-of";

/** Every kind of notification (issue 41): what happened, for whom by default, in words. */
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
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type KindDefinition = {
  /** For people: the preferences' and Settings' checkboxes, the inbox. */
  label: string;
  /** Who hears of it when the event names no roles; [] = only the people it names. */
  roles: readonly RoleName[];
};

export const KIND_DEFINITIONS: Record<NotificationKind, KindDefinition> = {
  "approval.waiting": { label: "An approval is waiting", roles: ["approver"] },
  "approval.decided": { label: "Your request was decided", roles: [] },
  "approval.expiring": { label: "An approval is about to expire", roles: ["approver"] },
  "wallet.low_balance": { label: "The wallet is below its low-balance threshold", roles: ["finance"] },
  "orders.failed": { label: "Your orders failed", roles: [] },
  "reveal.quota_alert": { label: "A person reached the reveal quota", roles: ["admin"] },
  "upstream.share_repeated": { label: "A person keeps hitting their upstream share", roles: ["admin"] },
  "reconciliation.difference": { label: "The daily reconciliation found a difference", roles: ["finance"] },
  "import.finished": { label: "The history import finished", roles: ["admin"] },
  "import.stuck": { label: "The history import is stuck", roles: ["admin"] },
  "upstream.key_refused": { label: "The upstream refused a key", roles: ["admin"] },
  "upstream.budget_exhausted": { label: "The upstream budget stayed exhausted", roles: ["admin"] },
};

export function kindLabel(kind: string): string {
  return isNotificationKind(kind) ? KIND_DEFINITIONS[kind].label : kind;
}

export function isNotificationKind(value: string): value is NotificationKind {
  return isOneOf(NOTIFICATION_KINDS, value);
}

/** Past this the bell says "99+": the count stops there, so a long-unread inbox costs no more to count. */
export const UNREAD_CAP = 100;
