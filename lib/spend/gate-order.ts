import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { db, Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { requestHash } from "@/lib/idempotency/ledger";
import { minorToDecimal, toMinor } from "@/lib/money";
import type { PlaceOrderInput } from "@/lib/orders/schemas";
import { getSettings } from "@/lib/settings/get-settings";
import type { OrderRequest } from "@/lib/upstream/client";
import { spentBy, upstream } from "@/lib/upstream/service";
import { toUpstreamRequest } from "@/lib/orders/upstream-request";
import { approvalWhy } from "./approval-reasons";
import { approvalNeeded, chargeSpend, lockBuyerSpend, type SpendAmount } from "./check-spend";
import { describeSpendLine, type LineBasis } from "./describe-spend-line";
import { findIssuedQuote } from "./issued-quote";
import { hasAnyLimit } from "./spend-limits";
import { recordSpendRequest, requireApprovalReason } from "./record-spend-request";

/**
 * The spend gate in front of one order. With no threshold and no limit that could apply,
 * the order goes on exactly as before. Otherwise, under the buyer's advisory lock and in
 * one transaction: count, decide, and record the intent — the ledger entry and its charge
 * (then the caller sends it), or an approval request with its charge (nothing is sent).
 */
export type Gate = { kind: "send"; request: OrderRequest; ledgered: boolean } | { kind: "awaiting"; spendRequestId: string };

export async function gateOrder(actor: Actor, key: string, data: PlaceOrderInput, request: OrderRequest): Promise<Gate> {
  const settings = await getSettings();
  if (settings.spendApprovalAmount === "" && !(await hasAnyLimit(db(), actor.staffId)))
    return { kind: "send", request, ledgered: false };
  const known = await findExisting(key);
  if (known) return known;

  const priced = await priceOrder(actor, data, request);
  // What an approver would see, read before the buyer's lock is taken (a cached catalog read).
  const line = await describeSpendLine(actor, priced.basis);
  try {
    return await db().$transaction(async (tx): Promise<Gate> => {
      await lockBuyerSpend(tx, actor.staffId);
      const reasons = await approvalNeeded(tx, actor.staffId, [priced.amount], settings);
      if (reasons.length === 0) {
        await tx.idempotencyKey.create({
          data: {
            key,
            purpose: "order.create",
            requestHash: requestHash("order.create", priced.request),
            requestBody: priced.request as Prisma.InputJsonValue,
            staffId: actor.staffId,
          },
        });
        await chargeSpend(tx, actor.staffId, `order:${key}`, [priced.amount]);
        return { kind: "send", request: priced.request, ledgered: true };
      }
      const why = approvalWhy(reasons);
      const reason = requireApprovalReason(data.approvalReason, why, "This order");
      const { currency, amountMinor } = priced.amount;
      const id = await recordSpendRequest(tx, actor, {
        kind: "order",
        reason,
        why,
        amounts: [priced.amount],
        settings,
        fields: {
          orderRequest: priced.inline as Prisma.InputJsonValue,
          lines: [line] as Prisma.InputJsonValue,
          submissionKey: key,
        },
        details: {
          kind: "order",
          total: minorToDecimal(amountMinor, currency),
          currency,
          why,
          reason,
          clientReference: data.clientReference,
        },
      });
      return { kind: "awaiting", spendRequestId: id };
    });
  } catch (error) {
    // The same key submitted twice at once: the other submission recorded it; follow that one.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      return (await findExisting(key)) ?? { kind: "send", request, ledgered: false };
    throw error;
  }
}

async function findExisting(key: string): Promise<Gate | null> {
  const waiting = await db().spendRequest.findUnique({ where: { submissionKey: key }, select: { id: true } });
  if (waiting) return { kind: "awaiting", spendRequestId: waiting.id };
  const entry = await db().idempotencyKey.findUnique({ where: { key } });
  return entry ? { kind: "send", request: entry.requestBody as OrderRequest, ledgered: false } : null;
}

/**
 * The order's total before it is sent, the inline form it would be placed in after an approval,
 * and what it buys and how its total was set (the line an approver reads).
 */
async function priceOrder(
  actor: Actor,
  data: PlaceOrderInput,
  request: OrderRequest,
): Promise<{ amount: SpendAmount; request: OrderRequest; inline: OrderRequest; basis: LineBasis }> {
  const purchaseInput = data.phoneNumber ? { purchaseInput: { phoneNumber: data.phoneNumber } } : {};
  if (data.quoteId) {
    const quote = await findIssuedQuote(data.quoteId);
    if (!quote)
      throw new AppError("quote_expired", "This price is no longer known here. Get a new price and order again.", {
        status: 409,
      });
    const { value, ...rest } = quote.item;
    const inline: OrderRequest = {
      item: { ...rest, ...(value != null ? { value } : {}) },
      clientReference: data.clientReference,
      ...purchaseInput,
    };
    const amount = { currency: quote.currency, amountMinor: quote.totalMinor };
    const { productId, variantId, quantity } = quote.item;
    return {
      amount,
      request,
      inline,
      basis: { item: { productId, variantId, value, quantity }, amount, pricedBy: "quote", pricedAt: quote.createdAt },
    };
  }
  const item = data.item!;
  // The inline form an approval would place, with the approved total as its ceiling then.
  const inline = toUpstreamRequest({ ...data, maximumTotal: undefined });
  const basisOf = (amount: SpendAmount, pricedBy: LineBasis["pricedBy"]): LineBasis => ({
    item: { productId: item.productId, variantId: item.variantId ?? null, value: item.value ?? null, quantity: item.quantity },
    amount,
    pricedBy,
    pricedAt: new Date(),
  });
  if (data.maximumTotal !== undefined) {
    const amount = { currency: item.currency, amountMinor: toMinor(data.maximumTotal, item.currency) };
    return { amount, request, inline, basis: basisOf(amount, "ceiling") };
  }
  // No ceiling given: price it now, and hold the order to that price so the limit checked is the limit spent.
  const { data: quote } = await upstream().createQuote(
    {
      productId: item.productId,
      variantId: item.variantId ?? null,
      value: item.value ?? null,
      quantity: item.quantity,
      currency: item.currency,
    },
    { priority: "money", by: spentBy(actor) },
  );
  const amount = { currency: quote.currency, amountMinor: toMinor(quote.total, quote.currency) };
  return {
    amount,
    request: { ...request, maximumTotal: quote.total } as OrderRequest,
    inline,
    basis: basisOf(amount, "price"),
  };
}
