import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { spentByJob } from "@/lib/upstream/service";
import { db } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { openLedgerEntry } from "@/lib/idempotency/ledger";
import { fromMinor } from "@/lib/money";
import { sendLedgeredOrder } from "@/lib/orders/place-order";
import { placeOrderSchema } from "@/lib/orders/schemas";
import type { OrderRequest } from "@/lib/upstream/client";
import type { BulkRowRequest } from "./check-rows";

/**
 * Places one row of a bulk order the way placeOrder places one order — ledger entry
 * committed under the row's key before the first send, the send retried under that key,
 * the answer mirrored and audited — but at "background" priority, so that people ordering
 * by hand go first in the shared request budget. (placeOrder itself always asks at
 * interactive priority; its exported signature is unchanged.)
 *
 * The order is priced inline with `maximumTotal` set to the previewed total: the buyer
 * confirmed that amount, so a price that rose since is refused, never silently paid.
 */
export type RowOutcome =
  | { kind: "placed"; orderId: string; correlationId?: string }
  | { kind: "failed"; code: string; message: string; correlationId?: string }
  | { kind: "unknown"; code: string; message: string; correlationId?: string };

export type StoredRow = { request: unknown; quotedTotalMinor: bigint | null; currency: string | null };

export function bulkRowOrderRequest(row: StoredRow): OrderRequest {
  const r = row.request as BulkRowRequest;
  if (!r || row.quotedTotalMinor === null || !row.currency) throw new Error("bulk order row has no checked request");
  return {
    item: {
      productId: r.productId,
      variantId: r.variantId ?? null,
      ...(r.value !== null ? { value: Number(r.value) } : {}),
      quantity: r.quantity,
      currency: r.currency,
    },
    clientReference: r.clientReference,
    maximumTotal: fromMinor(row.quotedTotalMinor, row.currency),
    ...(r.phoneNumber ? { purchaseInput: { phoneNumber: r.phoneNumber } } : {}),
  };
}

/** `actor` null: the uploader may no longer order; only a row already sent may be settled (same key, same request). */
export async function placeBulkRow(
  actor: Actor | null,
  staffId: string,
  key: string,
  request: OrderRequest,
): Promise<RowOutcome> {
  if (!("item" in request)) throw new Error("bulk rows are priced inline");
  const check = placeOrderSchema.safeParse({
    idempotencyKey: key,
    clientReference: request.clientReference,
    item: request.item,
    maximumTotal: request.maximumTotal,
    ...(request.purchaseInput ? { phoneNumber: request.purchaseInput.phoneNumber } : {}),
  });
  if (!check.success)
    return {
      kind: "failed",
      code: "invalid_request",
      message: check.error.issues[0]?.message ?? "The row is not a valid order.",
    };

  // Without a permitted actor, only a request that was already ledgered (and so perhaps sent) is pursued.
  if (!actor && !(await db().idempotencyKey.findUnique({ where: { key }, select: { key: true } }))) return failed("forbidden");
  const entry = await openLedgerEntry(key, "order.create", request, staffId).catch((error: unknown) => {
    // The row's key already holds another request (kept from before client keys were namespaced): fail the row, never loop.
    if (isAppError(error) && error.code === "conflict") return null;
    throw error;
  });
  if (!entry) return failed("idempotency_key_conflict");
  if (entry.state === "succeeded" && entry.resultId)
    return { kind: "placed", orderId: entry.resultId, correlationId: entry.correlationId ?? undefined };
  if (entry.state === "rejected") return failed(entry.errorCode ?? "conflict", undefined, entry.correlationId ?? undefined);

  try {
    const order = await sendLedgeredOrder(key, request, actor, {
      priority: "background",
      deadlineMs: 120_000,
      by: spentByJob("bulk-orders"),
    });
    return { kind: "placed", orderId: order.id };
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "outcome_unknown")
      return {
        kind: "unknown",
        code: error.code,
        message: "Sent; waiting for the Issuing Service to confirm. It will not be bought twice.",
        correlationId: error.correlationId,
      };
    return failed(error.code, error.message, error.correlationId);
  }
}

const MESSAGES: Record<string, string> = {
  product_unavailable: "The product became unavailable; nothing was bought.",
  insufficient_funds: "The wallet's available balance did not cover this order; nothing was bought.",
  price_above_maximum: "The price rose above the previewed total; nothing was bought. Upload the row again to see the new price.",
  not_found: "The Issuing Service no longer knows this product.",
  forbidden: "The person who uploaded this may no longer place orders.",
  idempotency_key_conflict: "This row's key was already used for another order; nothing was bought for this row.",
};

function failed(code: string, message?: string, correlationId?: string): RowOutcome {
  return { kind: "failed", code, message: MESSAGES[code] ?? message ?? "The Issuing Service refused this order.", correlationId };
}
