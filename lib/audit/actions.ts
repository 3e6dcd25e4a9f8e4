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
  "webhook.reprocess": "Reprocessed a webhook event",
};

export function auditActionLabel(action: string): string {
  return AUDIT_ACTIONS[action] ?? action;
}
