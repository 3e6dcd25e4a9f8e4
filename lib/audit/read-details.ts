import { AUDIT_ACTIONS, isAuditAction } from "./actions";

/**
 * A row's details in words for the audit page: "email: a@b.c · roles: buyer, support" when they
 * match their action's schema (read through it: amounts in minor units become amounts), else
 * the stored JSON as it is. Rows written before an action's schema (or of an action the table
 * does not know) are shown, never reinterpreted.
 */
export function auditDetailsText(action: string, details: unknown): string {
  if (details === null || details === undefined) return "";
  const read = isAuditAction(action) ? AUDIT_ACTIONS[action].details.safeParse(details) : null;
  if (!read?.success) return JSON.stringify(details);
  if (!read.data || typeof read.data !== "object") return "";
  return Object.entries(read.data)
    .map(([key, value]) => `${key}: ${inWords(value)}`)
    .join(" · ");
}

function inWords(value: unknown): string {
  if (Array.isArray(value)) return value.map(inWords).join(", ");
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}
