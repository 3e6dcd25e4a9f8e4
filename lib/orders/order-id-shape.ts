/**
 * Whether a search looks like an order id, so the orders page can go straight to the order.
 *
 * The contract calls ids opaque, so this is only a guess: every order id the upstream has
 * given (and the sandbox gives) starts with `ord_`. A guess that misses costs one lookup
 * (lookupOrder, held to the person's share) and hides nothing, because the same text is
 * still searched as a client reference or a product.
 */
const ORDER_ID_SHAPE = /^ord_[A-Za-z0-9_-]{4,96}$/;

export function looksLikeOrderId(text: string): boolean {
  return ORDER_ID_SHAPE.test(text);
}

/**
 * Whether a search is the beginning of an order id (`ord_`, then fewer characters than an id):
 * matched in the mirror by prefix, never asked of the upstream, which looks up whole ids only.
 */
export function looksLikeOrderIdStart(text: string): boolean {
  return text.startsWith("ord_") && !looksLikeOrderId(text);
}
