import type { OrderFields } from "./use-order-fields";

/**
 * What a buyer has typed into a product's order form, kept in this tab's sessionStorage as
 * they type, so that a session that ends mid-order (the next call answers 401 and the page
 * goes to sign-in) comes back with the same choice, quantity and reference once they have
 * signed in again. Only the order's own fields: never the phone number of a top-up (a
 * customer's personal data) and nothing revealed. Only the person who typed it gets it back
 * (another person signing in on this tab starts afresh), and placing the order clears it.
 */
export type OrderDraft = Pick<
  OrderFields,
  "variantId" | "value" | "quantity" | "clientReference" | "maximumTotal" | "approvalReason"
>;
const DRAFT_FIELDS = ["variantId", "value", "quantity", "clientReference", "maximumTotal", "approvalReason"] as const;
type Stored = { owner: string; at: number; fields: OrderDraft };

const storageKey = (productId: string) => `order-draft:${productId}`;
const MAX_AGE_MS = 12 * 3_600_000;
// Longer than any field takes (the approval reason, 500 characters): what is longer was not typed here.
const MAX_FIELD_LENGTH = 2_000;

export function draftOf(fields: OrderFields): OrderDraft {
  return Object.fromEntries(DRAFT_FIELDS.map((name) => [name, fields[name]])) as OrderDraft;
}

export function saveDraft(productId: string, owner: string, fields: OrderFields): void {
  try {
    const stored: Stored = { owner, at: Date.now(), fields: draftOf(fields) };
    sessionStorage.setItem(storageKey(productId), JSON.stringify(stored));
  } catch {
    // Storage full or disabled: the form still works, it just cannot survive a sign-in.
  }
}

/** The person's recent draft for this product, each field a string, or null. */
export function loadDraft(productId: string, owner: string): OrderDraft | null {
  try {
    const raw = sessionStorage.getItem(storageKey(productId));
    if (!raw) return null;
    const stored = JSON.parse(raw) as Partial<Stored>;
    if (stored.owner !== owner || typeof stored.at !== "number" || Date.now() - stored.at > MAX_AGE_MS) return null;
    const fields = stored.fields as Record<string, unknown> | undefined;
    if (!fields || typeof fields !== "object") return null;
    const valid = DRAFT_FIELDS.every((name) => typeof fields[name] === "string" && fields[name].length <= MAX_FIELD_LENGTH);
    return valid ? (fields as OrderDraft) : null;
  } catch {
    return null;
  }
}

export function clearDraft(productId: string): void {
  try {
    sessionStorage.removeItem(storageKey(productId));
  } catch {
    // nothing to clear
  }
}
