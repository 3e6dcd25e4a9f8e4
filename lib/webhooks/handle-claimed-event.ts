import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { toMinor } from "@/lib/money";
import { refreshOrder } from "@/lib/orders/refresh-order";
import { spentByJob, upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import type { ClaimedEvent } from "./claim-events";

export type ProcessOutcome = "processed" | "unknown_kind" | "failed" | "superseded";

const orderData = z.looseObject({ orderId: z.string().min(1).max(200) });
const walletCreditData = z.looseObject({
  amount: z.number().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  availableBalance: z.number().optional(),
  occurredAtUtc: z.iso.datetime({ offset: true }).optional(),
});

/**
 * Does what an event means, for an event this worker has claimed, and records the outcome:
 * - order.*: re-read the order and mirror it; the API's answer is the truth, and
 *   `occurredAt` only keeps an older event from moving `lastEventAt` back;
 * - wallet.credited: record the credit (once, keyed by the event id, in the same
 *   transaction as the outcome), then refresh the balance;
 * - anything else: kept as `unknown_kind` for a later release or an operator.
 * A failure is recorded (attempts, error, state failed) and rethrown so that the queue
 * retries with backoff; a payload that can never be processed is recorded and not rethrown.
 */
export async function handleClaimedEvent(event: ClaimedEvent): Promise<ProcessOutcome> {
  try {
    if (event.type.startsWith("order.")) {
      const { orderId } = parseData(orderData, event);
      // Someone may be watching this order's page: its events go before background work.
      // A refund is always read (fulfilled orders are not reconciled, so nothing else would).
      await refreshOrder(orderId, {
        eventAt: event.occurredAt ?? undefined,
        priority: "interactive",
        alwaysRead: event.type === "order.refunded",
      });
      return await finish(event, "processed");
    }
    if (event.type === "wallet.credited") return await recordCredit(event);
    return await finish(event, "unknown_kind");
  } catch (error) {
    await db()
      .webhookEvent.updateMany({
        where: fence(event),
        data: { state: "failed", lastError: describeError(error), processedAt: null },
      })
      .catch((writeError: unknown) =>
        logger.error("could not record a webhook failure", { eventId: event.id, error: String(writeError) }),
      );
    logger.warn("webhook event processing failed", {
      eventId: event.id,
      type: event.type,
      attempts: event.attempts,
      error: describeError(error),
    });
    if (isAppError(error) && error.code === "invalid_payload") return "failed";
    throw error;
  }
}

async function recordCredit(event: ClaimedEvent): Promise<ProcessOutcome> {
  const data = parseData(walletCreditData, event);
  const occurredAt = data.occurredAtUtc ? new Date(data.occurredAtUtc) : event.occurredAt;
  if (!occurredAt) throw new AppError("invalid_payload", "wallet.credited without occurredAtUtc");
  const credit = {
    eventId: event.id,
    amountMinor: minor(data.amount, data.currency),
    currency: data.currency,
    availableBalanceMinor: data.availableBalance === undefined ? null : minor(data.availableBalance, data.currency),
    occurredAt,
  };
  const [, outcome] = await db().$transaction([
    db().walletCredit.createMany({ data: [credit], skipDuplicates: true }),
    db().webhookEvent.updateMany({ where: fence(event), data: { state: "processed", processedAt: new Date(), lastError: null } }),
  ]);
  // The live balance is the upstream's; a failed refresh does not undo a recorded credit.
  try {
    const { data: balance } = await upstream().getBalance(data.currency, { priority: "background", by: spentByJob("webhooks") });
    logger.info("wallet credited", { eventId: event.id, currency: data.currency, availableBalance: balance.availableBalance });
  } catch (error) {
    logger.warn("balance refresh after a credit failed", { eventId: event.id, error: describeError(error) });
  }
  return outcome.count === 1 ? "processed" : superseded(event);
}

/** Writes the outcome only if this worker's claim is still the current one. */
async function finish(event: ClaimedEvent, state: "processed" | "unknown_kind"): Promise<ProcessOutcome> {
  const { count } = await db().webhookEvent.updateMany({
    where: fence(event),
    data: { state, processedAt: new Date(), lastError: null },
  });
  return count === 1 ? state : superseded(event);
}

function fence(event: ClaimedEvent) {
  return { id: event.id, state: "processing", attempts: event.attempts };
}

function superseded(event: ClaimedEvent): ProcessOutcome {
  logger.warn("webhook claim was taken over before its outcome was written", { eventId: event.id, attempts: event.attempts });
  return "superseded";
}

function parseData<S extends z.ZodType>(schema: S, event: ClaimedEvent): z.infer<S> {
  const data = (event.payload as { data?: unknown } | null)?.data;
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new AppError(
      "invalid_payload",
      `${event.type} data is not as expected: ${parsed.error.issues.map((i) => i.path.join(".") || "data").join(", ")}`,
    );
  return parsed.data;
}

function minor(amount: number, currency: string): bigint {
  try {
    return toMinor(amount, currency);
  } catch (error) {
    throw new AppError("invalid_payload", error instanceof Error ? error.message : "invalid amount");
  }
}

/** What an operator needs, never a secret: upstream code/status/reference, or a short message. */
function describeError(error: unknown): string {
  const failure = upstreamFailure(error);
  if (failure)
    return `upstream ${failure.code} (HTTP ${failure.status})${failure.correlationId ? `, ref ${failure.correlationId}` : ""}`;
  const text = isAppError(error)
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? `${error.name}: ${error.message}`
      : String(error);
  return text.replace(/svc(key|wh)_[A-Za-z0-9_-]+/g, "[redacted]").slice(0, 500);
}
