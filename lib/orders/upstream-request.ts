import type { OrderRequest } from "@/lib/upstream/client";
import type { PlaceOrderInput } from "./schemas";

/**
 * The upstream request for a validated order: from a quote, or priced inline (with the buyer's
 * `maximumTotal` when given). The spend gate builds an approval's inline request with it too.
 */
export function toUpstreamRequest(data: PlaceOrderInput): OrderRequest {
  const purchaseInput = data.phoneNumber ? { phoneNumber: data.phoneNumber } : undefined;
  if (data.quoteId)
    return { quoteId: data.quoteId, clientReference: data.clientReference, ...(purchaseInput ? { purchaseInput } : {}) };
  const item = data.item!;
  return {
    item: {
      productId: item.productId,
      variantId: item.variantId ?? null,
      ...(item.value != null ? { value: item.value } : {}),
      quantity: item.quantity,
      currency: item.currency,
    },
    clientReference: data.clientReference,
    ...(data.maximumTotal !== undefined ? { maximumTotal: data.maximumTotal } : {}),
    ...(purchaseInput ? { purchaseInput } : {}),
  };
}
