/** Human labels for audit actions, for the audit page's filter and table. */
export const AUDIT_ACTIONS: Record<string, string> = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Sign-in refused",
  "auth.sign_out": "Signed out",
  "staff.create": "Created staff",
  "staff.update_roles": "Changed roles",
  "staff.rename": "Renamed staff",
  "staff.deactivate": "Deactivated staff",
  "staff.reactivate": "Reactivated staff",
  "staff.reset_password": "Reset password",
  "settings.update": "Changed settings",
  "order.place": "Placed order",
  "bulk_order.confirm": "Confirmed a bulk order",
  "bulk_order.cancel": "Cancelled a bulk order",
  "order.rejected": "Order refused",
  "order.reveal": "Revealed codes",
  "order.reveal_refused": "Reveal refused by the Issuing Service",
  "order.reveal_quota_exceeded": "Reveal quota exceeded",
  "auth.step_up": "Confirmed password",
  "auth.step_up_failed": "Password confirmation failed",
  "webhook.reprocess": "Reprocessed a webhook event",
  "withdrawal.request": "Requested a withdrawal",
  "withdrawal.approve": "Approved a withdrawal",
  "withdrawal.reject": "Rejected a withdrawal",
  "withdrawal.self_approval_refused": "Tried to decide own withdrawal",
  "withdrawal.expire": "Withdrawal request expired",
  "withdrawal.send": "Withdrawal sent to the Issuing Service",
  "withdrawal.send_failed": "Withdrawal refused by the Issuing Service",
  "withdrawal.cancel": "Cancelled a withdrawal",
  "withdrawal.cancelled_upstream": "Withdrawal cancelled at the Issuing Service",
  "withdrawal.paid": "Withdrawal paid out",
  "wallet.deposit_address_request": "Requested the deposit address",
  "wallet.deposit_address_request_failed": "Deposit address request refused",
};

export function auditActionLabel(action: string): string {
  return AUDIT_ACTIONS[action] ?? action;
}
