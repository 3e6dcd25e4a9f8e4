import { ROLES, can, type Permission, type RoleName } from "@/lib/auth/permissions";
import { isOneOf } from "@/lib/is-one-of";

/** Every kind of notification: what happened, for whom by default, in words. */
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
  /**
   * The one table of who receives what: only people holding one of `roles` ever do,
   * so a person's settings list only these kinds (`kindsFor`). `to: "roles"`: every active holder
   * (less the people an event excepts); `to: "named"`: only the holders the event names (the
   * requester, the buyer). notify() enforces it, whatever a producer passes.
   */
  roles: readonly RoleName[];
  to: "roles" | "named";
};

/** Who can ask for an approval, and so hear its decision: a buyer's order or file, finance's withdrawal. */
const REQUESTERS = rolesWith("orders.create", "withdrawals.request");

export const KIND_DEFINITIONS: Record<NotificationKind, KindDefinition> = {
  "approval.waiting": { label: "An approval is waiting", roles: rolesWith("spend.approve", "withdrawals.approve"), to: "roles" },
  "approval.decided": { label: "Your request was decided", roles: REQUESTERS, to: "named" },
  "approval.expiring": {
    label: "An approval is about to expire",
    roles: rolesWith("spend.approve", "withdrawals.approve"),
    to: "roles",
  },
  "wallet.low_balance": { label: "The wallet is below its low-balance threshold", roles: ["finance"], to: "roles" },
  "orders.failed": { label: "Your orders failed", roles: rolesWith("orders.create"), to: "named" },
  "reveal.quota_alert": { label: "A person reached the reveal quota", roles: ["admin"], to: "roles" },
  "upstream.share_repeated": { label: "A person keeps hitting their upstream share", roles: ["admin"], to: "roles" },
  "reconciliation.difference": { label: "The daily reconciliation found a difference", roles: ["finance"], to: "roles" },
  "import.finished": { label: "The history import finished", roles: ["admin"], to: "roles" },
  "import.stuck": { label: "The history import is stuck", roles: ["admin"], to: "roles" },
  "upstream.key_refused": { label: "The upstream refused a key", roles: ["admin"], to: "roles" },
  "upstream.budget_exhausted": { label: "The upstream budget stayed exhausted", roles: ["admin"], to: "roles" },
};

/** The kinds a person with these roles can receive, in the table's order. */
export function kindsFor(roles: readonly string[]): NotificationKind[] {
  return NOTIFICATION_KINDS.filter((kind) => KIND_DEFINITIONS[kind].roles.some((role) => roles.includes(role)));
}

/** The kinds that ask someone to decide before a deadline: a digest can hold them past it. */
export const APPROVAL_KINDS: readonly NotificationKind[] = ["approval.waiting", "approval.expiring"];

export function kindLabel(kind: string): string {
  return isNotificationKind(kind) ? KIND_DEFINITIONS[kind].label : kind;
}

export function isNotificationKind(value: string): value is NotificationKind {
  return isOneOf(NOTIFICATION_KINDS, value);
}

/** Past this the bell says "99+": the count stops there, so a long-unread inbox costs no more to count. */
export const UNREAD_CAP = 100;

function rolesWith(...permissions: Permission[]): RoleName[] {
  return ROLES.filter((role) => permissions.some((permission) => can([role], permission)));
}
