import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { ledgerKeyForClient, markLedger, openLedgerEntry } from "@/lib/idempotency/ledger";
import type { OrderRequest, Spender } from "@/lib/upstream/client";
import { spentBy, spentByJob, upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { countEvent } from "@/lib/telemetry/event-counts";
import { mirrorOrder } from "./mirror";
import { placeOrderSchema } from "./schemas";
import { getMirroredOrder, type OrderView } from "./order-view";
import { toUpstreamRequest } from "./upstream-request";
import { gateOrder } from "@/lib/spend/gate-order";
import { releaseSpend, settleOrderSpend } from "@/lib/spend/check-spend";
import { toMinor } from "@/lib/money";
import { forgetBalances } from "@/lib/wallet/read-balances";

/**
 * How a placement is charged to the upstream budget: a person's order (and an approved spend
 * request, and the resume of either) is money, from the minute's reserved share; a bulk
 * file's rows are background work of their job, paced behind people.
 */
export type OrderCall = { priority: "money" | "background"; deadlineMs: number; by?: Spender };

export type SubmitResult = { kind: "placed"; order: OrderView; replayed: boolean } | { kind: "awaiting"; spendRequestId: string };

/**
 * Places one order, or holds it for approval (lib/spend/gate-order.ts: above the threshold
 * or past a limit). The ledger entry (key + exact request) is committed before the first
 * send; the upstream call is retried under that key; the answer is mirrored and audited in
 * one transaction. Submitting the same key again — double click, reload, retry after a
 * network error — returns the same order (or the same approval request) and never buys twice.
 * The client's key is kept and sent upstream as `client:<staffId>:<key>` (lib/idempotency/keys.ts).
 */
export async function submitOrder(actor: Actor, input: unknown): Promise<SubmitResult> {
  assertCan(actor, "orders.create");
  const data = parseInput(placeOrderSchema, input);
  // The client's key, in the namespace of client keys: it can never be a key the app derives.
  const key = await ledgerKeyForClient(actor.staffId, data.idempotencyKey);
  const gate = await gateOrder(actor, key, data, toUpstreamRequest(data));
  if (gate.kind === "awaiting") return gate;
  const entry = await openLedgerEntry(key, "order.create", gate.request, actor.staffId);
  const replayed = !entry.created && !gate.ledgered;

  if (entry.state === "succeeded" && entry.resultId) {
    const order = await getMirroredOrder(entry.resultId);
    if (order) return { kind: "placed", order, replayed: true };
  }
  if (entry.state === "rejected") {
    throw new AppError(entry.errorCode ?? "conflict", "This order was already refused by the Issuing Service. Start a new one.", {
      status: 409,
      correlationId: entry.correlationId ?? undefined,
    });
  }
  return { kind: "placed", order: await sendLedgeredOrder(key, gate.request, actor), replayed };
}

/** submitOrder for callers that only place (scripts, tests): an order held for approval is refused. */
export async function placeOrder(actor: Actor, input: unknown): Promise<{ order: OrderView; replayed: boolean }> {
  const result = await submitOrder(actor, input);
  if (result.kind === "awaiting")
    throw new AppError("awaiting_approval", "This order is waiting for an approver; it has not been placed.", {
      status: 409,
      extra: { spendRequestId: result.spendRequestId },
    });
  return result;
}

/**
 * Sends (or resends) the ledgered request and records the outcome. Also used by the
 * resume job for entries whose outcome was never heard (crash, timeout).
 */
export async function sendLedgeredOrder(
  key: string,
  request: OrderRequest,
  actor: Actor | null,
  call: OrderCall = { priority: "money", deadlineMs: 45_000 },
): Promise<OrderView> {
  try {
    const { data: order, correlationId } = await upstream().createOrder(request, key, {
      ...call,
      by: call.by ?? (actor ? spentBy(actor) : spentByJob("orders-resume")),
    });
    await db().$transaction(async (tx) => {
      await mirrorOrder(order, { placedById: actor?.staffId ?? null, idempotencyKey: key }, tx);
      await markLedger(tx, key, { state: "succeeded", resultId: order.id, correlationId });
      await settleOrderSpend(tx, key, order.currency, toMinor(order.total, order.currency));
      await recordAudit(tx, {
        action: "order.place",
        actor: actor ?? { email: "system:order-resume" },
        targetId: order.id,
        correlationId,
        details: { clientReference: order.clientReference, total: order.total, currency: order.currency, status: order.status },
      });
    });
    // The wallet moved: this process's next balance read asks the upstream (and tells finance if it crossed its low-balance threshold).
    forgetBalances();
    countEvent("dgis_orders_placed_total");
    return (await getMirroredOrder(order.id))!;
  } catch (error) {
    const failure = upstreamFailure(error);
    if (failure && !failure.outcomeUnknown && failure.code !== "budget_exhausted" && failure.status !== 429) {
      await db().$transaction(async (tx) => {
        await markLedger(tx, key, { state: "rejected", errorCode: failure.code, correlationId: failure.correlationId });
        // An approved request's charge is not released here: its request decides (a price rise goes back to the approvers, still counting).
        await releaseSpend(tx, `order:${key}`);
        await recordAudit(tx, {
          action: "order.rejected",
          actor: actor ?? { email: "system:order-resume" },
          targetId: key,
          correlationId: failure.correlationId,
          details: { reason: failure.code },
        });
      });
      countEvent("dgis_orders_failed_total", { reason: failure.code });
      throw error;
    }
    if (failure) {
      await db().$transaction((tx) =>
        markLedger(tx, key, { state: "unknown", errorCode: failure.code, correlationId: failure.correlationId }),
      );
      throw new AppError(
        "outcome_unknown",
        "The Issuing Service did not confirm the order yet. It will not be placed twice: submitting again, or waiting, will show the one order.",
        { status: 503, correlationId: failure.correlationId },
      );
    }
    throw error;
  }
}
