import { z } from "zod";
import { BULK_STATES } from "@/lib/bulk-orders/states";
import { ORDER_STATUSES } from "@/lib/orders/states";
import type { AuditTargetKind } from "./targets";
import {
  bulkTotals,
  count,
  currency,
  decimal,
  factorKind,
  factorProof,
  isoTime,
  noDetails,
  reasonCode,
  revealRequest,
  roles,
  settingValue,
  spendKind,
  spendLimitView,
  storedSpendTotals,
  withdrawalAmount,
} from "./detail-schemas";

type AuditActionSpec = {
  /** What the audit page's table and its Action filter say. */
  label: string;
  /** What the entry is about (its `targetType`, written by `recordAudit` from here), or null. */
  target: AuditTargetKind | null;
  /** What its `details` hold (`noDetails`: none). */
  details: z.ZodType;
  /** No longer recorded (`recordAudit` refuses it); kept so that old rows keep their label. */
  retired?: true;
};

/**
 * Every audit action: the one table `recordAudit` accepts (anything else is a type error) and
 * the audit page reads. Documenso's document audit log does the same: one type per event with
 * its data's schema. Keys are stored in rows: never rename one; retire it and add another.
 */
export const AUDIT_ACTIONS = {
  "auth.sign_in": { label: "Signed in", target: "session", details: noDetails },
  "auth.sign_in_failed": {
    label: "Sign-in refused",
    target: "staff",
    details: z.strictObject({ reason: z.enum(["locked", "unknown_account", "deactivated", "wrong_password", "sso_only"]) }),
  },
  "auth.sign_out": { label: "Signed out", target: "session", details: noDetails },
  "auth.step_up": { label: "Confirmed password", target: "session", details: noDetails },
  "auth.step_up_failed": {
    label: "Password confirmation failed",
    target: "session",
    details: z.strictObject({ locked: z.boolean() }),
  },
  "auth.second_factor": {
    label: "Confirmed second factor",
    target: "session",
    details: z.strictObject({ method: factorProof, purpose: z.enum(["sign_in", "step_up"]) }),
  },
  "auth.second_factor_failed": {
    label: "Second factor refused",
    target: "session",
    details: z.strictObject({
      method: factorProof,
      reason: z.enum(["wrong", "reused", "locked", "no_challenge"]),
      purpose: z.enum(["sign_in", "step_up"]),
    }),
  },
  "auth.recovery_code_used": { label: "Used a recovery code", target: "staff", details: z.strictObject({ left: count }) },
  "auth.sso_sign_in": {
    label: "Signed in by SSO",
    target: "session",
    details: z.strictObject({ amr: z.array(z.string()), idpSecondFactor: z.boolean() }),
  },
  "auth.sso_step_up": {
    label: "Confirmed by SSO",
    target: "session",
    details: z.strictObject({ amr: z.array(z.string()) }),
  },
  "auth.sso_sign_in_refused": {
    label: "SSO sign-in refused",
    target: "staff",
    details: z.strictObject({ reason: z.enum(["unverified", "email_characters", "domain", "unknown_account", "deactivated"]) }),
  },

  "second_factor.enrol": {
    label: "Added second factor",
    target: "staff",
    details: z.strictObject({ kind: factorKind, name: z.string() }),
  },
  "second_factor.remove": {
    label: "Removed second factor",
    target: "staff",
    details: z.strictObject({ kind: factorKind, name: z.string() }),
  },
  "second_factor.rename": {
    label: "Renamed second factor",
    target: "staff",
    details: z.strictObject({ kind: factorKind, from: z.string(), to: z.string() }),
  },
  "second_factor.reset": {
    label: "Reset second factor",
    target: "staff",
    details: z.strictObject({ email: z.string(), removed: count }),
  },
  "second_factor.recovery_codes_issued": {
    label: "Issued recovery codes",
    target: "staff",
    details: z.strictObject({ count }),
  },

  "staff.create": { label: "Created staff", target: "staff", details: z.strictObject({ email: z.string(), roles }) },
  "staff.created_by_sso": {
    label: "Account created by SSO",
    target: "staff",
    details: z.strictObject({ email: z.string(), roles }),
  },
  "staff.update_roles": {
    label: "Changed roles",
    target: "staff",
    details: z.strictObject({ email: z.string(), from: roles, to: roles }),
  },
  "staff.rename": {
    label: "Renamed staff",
    target: "staff",
    details: z.strictObject({ email: z.string(), from: z.string(), to: z.string() }),
  },
  "staff.deactivate": {
    label: "Deactivated staff",
    target: "staff",
    details: z.strictObject({ email: z.string(), cancelledSpendRequests: z.array(z.string()) }),
  },
  "staff.reactivate": { label: "Reactivated staff", target: "staff", details: z.strictObject({ email: z.string() }) },
  "staff.reset_password": {
    label: "Reset password",
    target: "staff",
    details: z.strictObject({ email: z.string() }),
    retired: true, // an admin no longer types a password: staff.password_reset_link, then staff.password_reset_completed
  },
  "staff.invite": {
    label: "Invited staff",
    target: "access_link",
    details: z.strictObject({ email: z.string(), roles, expiresAt: isoTime }),
  },
  "staff.invitation_resent": {
    label: "Sent an invitation again",
    target: "access_link",
    details: z.strictObject({ email: z.string(), expiresAt: isoTime, sendCount: count, replaces: z.string() }),
  },
  "staff.invitation_revoked": {
    label: "Revoked an invitation",
    target: "access_link",
    details: z.strictObject({ email: z.string() }),
  },
  "staff.invitation_accepted": {
    label: "Accepted an invitation",
    target: "staff",
    details: z.strictObject({ email: z.string(), roles, invitationId: z.string() }),
  },
  "staff.password_reset_link": {
    label: "Sent a password reset link",
    target: "staff",
    details: z.strictObject({ email: z.string(), expiresAt: isoTime }),
  },
  "staff.password_reset_completed": {
    label: "Set a new password by reset link",
    target: "staff",
    details: z.strictObject({ email: z.string() }),
  },
  "staff.access_link_expired": {
    label: "Invitation or reset link expired",
    target: "access_link",
    details: z.strictObject({
      email: z.string(),
      purpose: z.enum(["invitation", "password_reset"]),
      noticedBy: z.enum(["use", "sweep"]),
    }),
  },

  "settings.update": {
    label: "Changed settings",
    target: "setting",
    details: z.strictObject({ from: settingValue, to: settingValue }),
  },
  "settings.notifications": {
    label: "Changed notification settings",
    target: "setting",
    details: z.strictObject({ changed: z.array(z.string()), chatWebhook: z.enum(["set", "removed", "unchanged"]) }),
  },
  "settings.second_factor_policy": {
    label: "Changed second-factor policy",
    target: "setting",
    details: z.strictObject({ from: roles, to: roles }),
  },
  "settings.sso_only": {
    label: "Changed SSO-only sign-in",
    target: "setting",
    details: z.strictObject({ from: z.boolean(), to: z.boolean() }),
  },

  "order.place": {
    label: "Placed order",
    target: "order",
    details: z.strictObject({
      clientReference: z.string(),
      total: z.number(),
      currency,
      status: z.enum(ORDER_STATUSES),
    }),
  },
  "order.rejected": { label: "Order refused", target: "idempotency-key", details: z.strictObject({ reason: reasonCode }) },
  "orders.import_pause": { label: "Paused the order import", target: "order-import", details: importDetails() },
  "orders.import_resume": { label: "Resumed the order import", target: "order-import", details: importDetails() },
  "orders.import_restart": { label: "Restarted the order import", target: "order-import", details: importDetails() },

  "bulk_order.confirm": {
    label: "Confirmed a bulk order",
    target: "bulk_order",
    details: z.strictObject({
      fileName: z.string().nullable(),
      rows: count,
      validRows: count,
      totals: bulkTotals,
      /** Present when the file was confirmed by its spend approval. */
      approved: z.literal(true).optional(),
    }),
  },
  "bulk_order.cancel": {
    label: "Cancelled a bulk order",
    target: "bulk_order",
    details: z.strictObject({ previousState: z.string().pipe(z.enum(BULK_STATES)), stoppedRows: count, inFlightRows: count }),
  },

  "order.reveal_started": {
    label: "Asked to reveal codes",
    target: "order",
    details: z.strictObject(revealRequest),
  },
  "order.reveal": {
    label: "Revealed codes",
    target: "order",
    details: z.strictObject({ ...revealRequest, revealCount: count, items: count }),
  },
  "order.reveal_failed": {
    label: "Reveal failed at the Issuing Service",
    target: "order",
    details: z.strictObject({ ...revealRequest, outcome: reasonCode }),
  },
  "order.reveal_refused": {
    label: "Reveal refused by the Issuing Service",
    target: "order",
    details: z.strictObject({ ticket: z.string(), reason: z.string(), outcome: reasonCode }),
    retired: true, // now recorded as order.reveal_failed, after its order.reveal_started
  },
  "order.reveal_quota_exceeded": {
    label: "Reveal quota exceeded",
    target: "order",
    details: z.strictObject({ quota: count, used: count }),
  },

  "upstream.share_exceeded": {
    label: "Went past their share of the upstream budget",
    target: "staff",
    details: z.strictObject({ minute: isoTime }),
  },

  "upstream.key_scope_refused": {
    label: "Upstream refused a key a scope",
    target: "upstream_key",
    details: z.strictObject({
      key: z.enum(["read", "ordering", "payout", "general"]),
      scope: z.string(),
      message: z.string(),
    }),
  },

  "upstream.key_refused": {
    label: "Upstream refused a key (revoked or unknown)",
    target: "upstream_key",
    details: z.strictObject({
      key: z.enum(["read", "ordering", "payout", "general"]),
      scope: z.string(),
      message: z.string(),
    }),
  },

  "notification.chat_test": {
    label: "Sent a test message to the chat channel",
    target: "setting",
    details: z.strictObject({ webhook: z.string() }),
  },
  "notification.retry": {
    label: "Sent a failed notification again",
    target: "notification_delivery",
    details: z.strictObject({ channel: z.string(), attempts: count, lastError: z.string().nullable() }),
  },

  "webhook.reprocess": {
    label: "Reprocessed a webhook event",
    target: "webhook_event",
    details: z.strictObject({ type: z.string(), previousState: z.string(), attempts: count }),
  },

  "books.period_locked": {
    label: "Locked a month's books",
    target: "book_period",
    details: z.strictObject({ movements: count, late: count }),
  },
  "books.reopen_requested": {
    label: "Asked to reopen a month's books",
    target: "book_period",
    details: z.strictObject({ reason: z.string() }),
  },
  "books.period_reopened": {
    label: "Reopened a month's books",
    target: "book_period",
    details: z.strictObject({ reason: z.string() }),
  },
  "books.delivery_updated": {
    label: "Changed who receives the monthly journal",
    target: "setting",
    details: z.strictObject({ schedule: z.string(), format: z.string(), recipients: count }),
  },
  "books.self_approval_refused": {
    label: "Tried to approve own reopening of a month",
    target: "book_period",
    details: noDetails,
  },

  "withdrawal.request": {
    label: "Requested a withdrawal",
    target: "withdrawal",
    details: z.strictObject({
      ...withdrawalAmount,
      fee: decimal,
      netAmount: decimal,
      reason: z.string(),
      expiresAt: isoTime,
    }),
  },
  "withdrawal.approve": { label: "Approved a withdrawal", target: "withdrawal", details: withdrawalDecision() },
  "withdrawal.reject": { label: "Rejected a withdrawal", target: "withdrawal", details: withdrawalDecision() },
  "withdrawal.self_approval_refused": {
    label: "Tried to decide own withdrawal",
    target: "withdrawal",
    details: noDetails,
  },
  "withdrawal.expire": { label: "Withdrawal request expired", target: "withdrawal", details: noDetails },
  "withdrawal.send": {
    label: "Withdrawal sent to the Issuing Service",
    target: "withdrawal",
    details: z.strictObject({
      ...withdrawalAmount,
      upstreamId: z.string(),
      attempts: count,
      foundAfterLostAnswer: z.boolean(),
      payoutDate: isoTime,
    }),
  },
  "withdrawal.send_failed": {
    label: "Withdrawal refused by the Issuing Service",
    target: "withdrawal",
    details: z.strictObject({ ...withdrawalAmount, reason: reasonCode, message: z.string(), attempts: count }),
  },
  "withdrawal.cancel": {
    label: "Cancelled a withdrawal",
    target: "withdrawal",
    details: z.discriminatedUnion("sentUpstream", [
      z.strictObject({ ...withdrawalAmount, sentUpstream: z.literal(false) }),
      z.strictObject({ ...withdrawalAmount, sentUpstream: z.literal(true), upstreamId: z.string() }),
    ]),
  },
  "withdrawal.cancelled_upstream": {
    label: "Withdrawal cancelled at the Issuing Service",
    target: "withdrawal",
    details: withdrawalSettled(),
  },
  "withdrawal.paid": { label: "Withdrawal paid out", target: "withdrawal", details: withdrawalSettled() },

  "wallet.deposit_address_request": {
    label: "Requested the deposit address",
    target: "deposit-address",
    details: z.strictObject({ network: z.string(), asset: z.string(), created: z.boolean() }),
  },
  "wallet.deposit_address_request_failed": {
    label: "Deposit address request refused",
    target: "deposit-address",
    // "<code> (HTTP <status>)" or "no answer"
    details: z.strictObject({ reason: z.string().min(1) }),
  },

  "spend.request": {
    label: "Asked for a spend approval",
    target: "spend_request",
    details: z.discriminatedUnion("kind", [
      z.strictObject({
        kind: z.literal("order"),
        total: decimal,
        currency,
        why: z.string(),
        reason: z.string(),
        clientReference: z.string().optional(),
      }),
      z.strictObject({
        kind: z.literal("bulk"),
        bulkOrderId: z.string(),
        fileName: z.string().nullable(),
        totals: z.array(z.strictObject({ currency, total: decimal })),
        why: z.string(),
        reason: z.string(),
      }),
    ]),
  },
  "spend.approve": { label: "Approved a spend request", target: "spend_request", details: spendDecision() },
  "spend.reject": { label: "Rejected a spend request", target: "spend_request", details: spendDecision() },
  "spend.self_approval_refused": {
    label: "Tried to decide own spend request",
    target: "spend_request",
    details: noDetails,
  },
  "spend.expire": {
    label: "Spend request expired",
    target: "spend_request",
    details: z.strictObject({ kind: spendKind, totals: storedSpendTotals }),
  },
  "spend.cancel": {
    label: "Cancelled a spend request",
    target: "spend_request",
    details: z.union([
      // The buyer was deactivated (by the actor).
      z.strictObject({
        reason: z.literal("buyer_deactivated"),
        kind: spendKind,
        totals: storedSpendTotals,
        requestedById: z.string(),
      }),
      // The buyer cancelled their waiting bulk file.
      z.strictObject({ bulkOrderId: z.string() }),
    ]),
  },
  "spend.placed": {
    label: "Approved order placed",
    target: "spend_request",
    details: z.strictObject({ orderId: z.string().nullable(), total: decimal.nullable(), currency: currency.nullable() }),
  },
  "spend.price_changed": {
    label: "Price rose after approval: back to the approvers",
    target: "spend_request",
    details: z.strictObject({ currency, approvedTotal: decimal, newTotal: decimal.nullable() }),
  },
  "spend.failed": {
    label: "Approved order refused by the Issuing Service",
    target: "spend_request",
    details: z.strictObject({ reason: reasonCode }),
  },
  "spend.limits": {
    label: "Changed spend limits",
    target: "spend_limit",
    details: z.strictObject({ from: spendLimitView.nullable(), to: spendLimitView.nullable() }),
  },
} satisfies Record<string, AuditActionSpec>;

function importDetails() {
  return z.strictObject({ from: z.string(), pagesRead: count });
}

function withdrawalDecision() {
  return z.strictObject({ ...withdrawalAmount, comment: z.string().nullable(), requestedById: z.string() });
}

function withdrawalSettled() {
  return z.strictObject({ ...withdrawalAmount, upstreamId: z.string(), at: isoTime.nullable() });
}

function spendDecision() {
  return z.strictObject({
    kind: spendKind,
    totals: storedSpendTotals,
    comment: z.string().nullable(),
    requestedById: z.string(),
    round: count,
  });
}

type Table = typeof AUDIT_ACTIONS;
export type AuditAction = keyof Table;
/** The actions `recordAudit` may write: all but the retired ones. */
export type RecordableAuditAction = {
  [A in AuditAction]: Table[A] extends { retired: true } ? never : A;
}[AuditAction];
export type AuditTargetOf<A extends AuditAction> = Table[A]["target"];
export type AuditDetailsOf<A extends AuditAction> = z.input<Table[A]["details"]>;

export const AUDIT_ACTION_KEYS = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, value);
}

/** Why these details do not fit the action's schema ("path: message; …"), or null when they do. */
export function auditDetailsProblem(action: AuditAction, details: unknown): string | null {
  const checked = AUDIT_ACTIONS[action].details.safeParse(details);
  if (checked.success) return null;
  return checked.error.issues.map((issue) => `${issue.path.join(".") || "(details)"}: ${issue.message}`).join("; ");
}

/** The label of a stored action; an action the table does not know (an old row's) reads as it is. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? AUDIT_ACTIONS[action].label : action;
}

type ActionPrefix = AuditAction extends `${infer P}.${string}` ? P : never;

/** The Action filter's groups, by the part of an action before its dot (each offers "All …" as `prefix.*`). */
export const AUDIT_ACTION_GROUPS: Record<ActionPrefix, string> = {
  auth: "Sign-ins",
  second_factor: "Second factors",
  staff: "Staff",
  settings: "Settings",
  order: "Orders and reveals",
  orders: "Order import",
  bulk_order: "Bulk orders",
  upstream: "Upstream budget",
  webhook: "Webhook events",
  notification: "Notifications",
  withdrawal: "Withdrawals",
  wallet: "Wallet",
  books: "Closing months",
  spend: "Spend approvals and limits",
};

export type AuditActionGroup = { prefix: string; label: string; actions: { value: AuditAction; label: string }[] };

/** Every action with its label, in groups, in the table's order. */
export function auditActionGroups(): AuditActionGroup[] {
  const groups = new Map<string, AuditActionGroup>();
  for (const action of AUDIT_ACTION_KEYS) {
    const prefix = action.slice(0, action.indexOf(".")) as ActionPrefix;
    const group = groups.get(prefix) ?? { prefix, label: AUDIT_ACTION_GROUPS[prefix], actions: [] };
    group.actions.push({ value: action, label: AUDIT_ACTIONS[action].label });
    groups.set(prefix, group);
  }
  return [...groups.values()];
}
