import type { z } from "zod";
import { isOneOf } from "@/lib/is-one-of";
import { NOTIFICATION_KINDS, type NotificationKind } from "./kind-names";
import type { KindDefinition } from "./kinds/define-kind";
import { approvalDecided } from "./kinds/approval-decided";
import { approvalExpiring } from "./kinds/approval-expiring";
import { approvalWaiting } from "./kinds/approval-waiting";
import { catalogChanged } from "./kinds/catalog-changed";
import { importFinished } from "./kinds/import-finished";
import { importStuck } from "./kinds/import-stuck";
import { ordersFailed } from "./kinds/orders-failed";
import { reconciliationDifference } from "./kinds/reconciliation-difference";
import { revealQuotaAlert } from "./kinds/reveal-quota-alert";
import { upstreamBudgetExhausted } from "./kinds/upstream-budget-exhausted";
import { upstreamKeyRefused } from "./kinds/upstream-key-refused";
import { upstreamShareRepeated } from "./kinds/upstream-share-repeated";
import { walletLowBalance } from "./kinds/wallet-low-balance";
import { booksJournalReady } from "./kinds/books-journal-ready";

export { APPROVAL_KINDS, NOTIFICATION_KINDS, UNREAD_CAP, type NotificationKind } from "./kind-names";
export type { KindDefinition } from "./kinds/define-kind";

/**
 * Every kind of notification, one definition each (lib/notifications/kinds/): who receives it,
 * what a producer says (its payload), its event key and its words. The preferences, Settings'
 * defaults, notify() and the inbox all read this one table.
 */
export const KIND_DEFINITIONS = {
  "approval.waiting": approvalWaiting,
  "approval.decided": approvalDecided,
  "approval.expiring": approvalExpiring,
  "wallet.low_balance": walletLowBalance,
  "orders.failed": ordersFailed,
  "reveal.quota_alert": revealQuotaAlert,
  "upstream.share_repeated": upstreamShareRepeated,
  "reconciliation.difference": reconciliationDifference,
  "import.finished": importFinished,
  "import.stuck": importStuck,
  "upstream.key_refused": upstreamKeyRefused,
  "upstream.budget_exhausted": upstreamBudgetExhausted,
  "catalog.changed": catalogChanged,
  "books.journal_ready": booksJournalReady,
} satisfies Record<NotificationKind, KindDefinition>;

/** What a producer of `kind` says happened (its definition's payload schema, before parsing). */
export type NotificationPayload<K extends NotificationKind> = z.input<(typeof KIND_DEFINITIONS)[K]["payload"]>;

/** The kinds a person with these roles can receive, in the table's order. */
export function kindsFor(roles: readonly string[]): NotificationKind[] {
  return NOTIFICATION_KINDS.filter((kind) => KIND_DEFINITIONS[kind].roles.some((role) => roles.includes(role)));
}

export function kindLabel(kind: string): string {
  return isNotificationKind(kind) ? KIND_DEFINITIONS[kind].label : kind;
}

export function isNotificationKind(value: string): value is NotificationKind {
  return isOneOf(NOTIFICATION_KINDS, value);
}
