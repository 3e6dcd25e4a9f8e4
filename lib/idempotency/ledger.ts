import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { db, Prisma, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { clientOrderKey, isDerivedKey } from "./keys";

/**
 * The idempotency ledger. A key is created and committed with the request's hash and
 * body BEFORE the first send, so that a retry — after a double click, a reload, a network
 * error, or a crash and restart — resends the same request under the same key, and the
 * upstream returns the one order instead of buying twice.
 */
export type LedgerPurpose = "order.create" | "order.reveal";
export type LedgerState = "pending" | "succeeded" | "rejected" | "unknown";
export type LedgerEntry = {
  key: string;
  purpose: string;
  state: string;
  resultId: string | null;
  requestBody: unknown;
  errorCode: string | null;
  correlationId: string | null;
};

export const idempotencyKeySchemaPattern = /^[\x21-\x7e]{1,128}$/;

export function newIdempotencyKey(): string {
  return randomUUID();
}

export function requestHash(purpose: string, body: unknown): string {
  return createHash("sha256").update(purpose).update("\0").update(canonicalJson(body)).digest("hex");
}

/**
 * The ledger key for an order key a client gave: `clientOrderKey` (lib/idempotency/keys.ts).
 * An order submitted before client keys were namespaced was kept under the key as sent; a
 * retry of it by the same person must still find that one order, so such an entry (theirs,
 * not of a derived key's form) is followed. Two indexed lookups; nothing new is ever
 * written under a bare client key.
 */
export async function ledgerKeyForClient(staffId: string, key: string): Promise<string> {
  const namespaced = clientOrderKey(staffId, key);
  if (isDerivedKey(key)) return namespaced;
  const [entry, request] = await Promise.all([
    db().idempotencyKey.findFirst({ where: { key, staffId, purpose: "order.create" }, select: { key: true } }),
    db().spendRequest.findFirst({ where: { submissionKey: key, requestedById: staffId }, select: { id: true } }),
  ]);
  return entry || request ? key : namespaced;
}

/**
 * Returns the entry for `key`, creating it (committed) when new. The same key with a
 * different request is refused: it would make the upstream answer for another purchase.
 */
export async function openLedgerEntry(
  key: string,
  purpose: LedgerPurpose,
  body: unknown,
  staffId: string | null,
): Promise<LedgerEntry & { created: boolean }> {
  if (!idempotencyKeySchemaPattern.test(key))
    throw new AppError("invalid_request", "The idempotency key must be 1–128 printable characters.", {
      fieldErrors: { idempotencyKey: ["Must be 1–128 printable characters."] },
    });
  const hash = requestHash(purpose, body);
  try {
    const created = await db().idempotencyKey.create({
      data: { key, purpose, requestHash: hash, requestBody: body as Prisma.InputJsonValue, staffId },
    });
    return { ...created, created: true };
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
  }
  const existing = await db().idempotencyKey.findUniqueOrThrow({ where: { key } });
  if (existing.purpose !== purpose || existing.requestHash !== hash) {
    throw new AppError("conflict", "This request was already submitted with different details. Start a new one.");
  }
  return { ...existing, created: false };
}

export async function markLedger(
  tx: Tx,
  key: string,
  outcome: { state: LedgerState; resultId?: string; errorCode?: string; correlationId?: string },
): Promise<void> {
  await tx.idempotencyKey.update({
    where: { key },
    data: {
      state: outcome.state,
      resultId: outcome.resultId,
      errorCode: outcome.errorCode,
      correlationId: outcome.correlationId,
      attempts: { increment: 1 },
    },
  });
}

/** Entries whose outcome is not known yet (never sent, or sent without an answer). */
export async function unresolvedEntries(purpose: LedgerPurpose, olderThanMs: number, limit = 50) {
  return db().idempotencyKey.findMany({
    where: { purpose, state: { in: ["pending", "unknown"] }, updatedAt: { lt: new Date(Date.now() - olderThanMs) } },
    orderBy: { createdAt: "asc" },
    take: limit,
  });
}

/** JSON with sorted keys, so that the hash does not depend on property order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}
