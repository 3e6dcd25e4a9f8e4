import { AUDIT_ACTIONS, isAuditAction } from "./actions";

/**
 * One of a row's details as the audit page shows it: "roles: buyer, support". `id`: an id people
 * quote, shortened on the page. A detail without a label is a row's details as stored.
 */
export type AuditDetail = { label: string; text: string; id?: true };

/**
 * Detail keys that hold an id: a staff id is read as the person's name (the id, when no name is
 * found); an id people quote is kept (shortened on the page); a row id nobody quotes is left out.
 */
const ID_KEYS: Record<string, { label: string; is: "person" | "quoted" } | null> = {
  requestedById: { label: "requested by", is: "person" },
  orderId: { label: "order", is: "quoted" },
  upstreamId: { label: "upstream id", is: "quoted" },
  revealId: { label: "reveal", is: "quoted" },
  bulkOrderId: { label: "bulk order", is: "quoted" },
  invitationId: null,
  replaces: null,
};

/** The staff ids a row's details name (`requestedById`), for the page to look up their names. */
export function detailStaffIds(details: unknown): string[] {
  if (!details || typeof details !== "object" || !("requestedById" in details)) return [];
  return typeof details.requestedById === "string" ? [details.requestedById] : [];
}

/**
 * A row's details in words for the audit page, when they match their action's schema (read
 * through it: amounts in minor units become amounts): "email: a@b.c", "roles: buyer, support".
 * A detail with nothing in it (a comment not given) is left out. Rows written before an
 * action's schema (or of an action the table does not know) are shown as stored, never
 * reinterpreted. `names`: staff id → name.
 */
export function auditDetails(action: string, details: unknown, names: ReadonlyMap<string, string> = new Map()): AuditDetail[] {
  if (details === null || details === undefined) return [];
  const read = isAuditAction(action) ? AUDIT_ACTIONS[action].details.safeParse(details) : null;
  if (!read?.success) return [{ label: "", text: JSON.stringify(details) }];
  if (!read.data || typeof read.data !== "object") return [];
  return Object.entries(read.data).flatMap(([key, value]): AuditDetail[] => {
    const text = inWords(value);
    if (text === "") return [];
    if (!Object.hasOwn(ID_KEYS, key)) return [{ label: keyInWords(key), text }];
    const idKey = ID_KEYS[key];
    if (!idKey) return [];
    const name = idKey.is === "person" ? names.get(text) : undefined;
    return [name ? { label: idKey.label, text: name } : { label: idKey.label, text, id: true }];
  });
}

/** "pagesRead" → "pages read". */
function keyInWords(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}

function inWords(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(inWords).filter(Boolean).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
