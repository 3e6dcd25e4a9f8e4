import { iso } from "./clock";
import { toAmount } from "./money";
import type { Order, Quote } from "./state";

// The Order and Quote resources. Artifacts never appear here: only the reveal call returns them.

export function orderView(order: Order): Record<string, unknown> {
  return {
    id: order.id,
    clientReference: order.clientReference,
    status: order.status,
    total: toAmount(order.totalCents),
    currency: order.currency,
    lines: order.lines.map((line) => ({
      productId: line.productId,
      variantId: line.variantId,
      productName: line.productName,
      variantLabel: line.variantLabel,
      quantity: line.quantity,
      unitPrice: toAmount(line.unitCents),
      currency: line.currency,
      faceValue: toAmount(line.faceCents),
      faceCurrency: line.faceCurrency,
    })),
    createdAtUtc: iso(order.createdAtMs),
    updatedAtUtc: iso(order.updatedAtMs),
  };
}

export function quoteView(quote: Quote): Record<string, unknown> {
  return {
    id: quote.id,
    productId: quote.productId,
    variantId: quote.variantId,
    value: quote.valueCents === null ? null : toAmount(quote.valueCents),
    quantity: quote.line.quantity,
    unitPrice: toAmount(quote.line.unitCents),
    total: toAmount(quote.totalCents),
    currency: quote.currency,
    createdAtUtc: iso(quote.createdAtMs),
    expiresAtUtc: iso(quote.expiresAtMs),
  };
}
