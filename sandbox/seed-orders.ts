import { generateArtifacts } from "./artifacts";
import type { Sandbox } from "./context";
import { newId } from "./ids";
import { priceItem } from "./pricing";
import { isAvailable } from "./product-view";
import type { Order, OrderStatus, Workspace } from "./state";

// POST /_sandbox/orders/seed: a workspace's order history in one call, for tests and benchmarks that
// need "orders placed before the app existed" without spending the rate limit. Seeded orders are
// history: no wallet movement, no webhooks, no audit entries. Fulfilled ones carry artifacts, so
// they reveal like any other order. Creation times are spread evenly over the past `spreadSeconds`,
// never before the workspace's newest order, so list order (seq) and creation order still agree.

export type SeedOptions = { count: number; status: OrderStatus; spreadSeconds: number; referencePrefix: string };

export function seedOrders(sb: Sandbox, ws: Workspace, options: SeedOptions): Order[] {
  // Variant gift cards and eSIMs: no phone number, no value grid, always priceable.
  const products = sb.catalog.products.filter(
    (p) => p.type !== "phone-top-up" && p.variants.length > 0 && isAvailable(sb.state, p),
  );
  const now = sb.clock.now();
  const newest = [...ws.orders.values()].at(-1)?.createdAtMs ?? Number.NEGATIVE_INFINITY;
  const from = Math.max(now - options.spreadSeconds * 1000, newest + 1);
  const step = options.count > 1 ? Math.max(0, Math.floor((now - from) / (options.count - 1))) : 0;
  const seeded: Order[] = [];
  for (let i = 0; i < options.count; i++) {
    const product = products[i % products.length]!;
    const variant = product.variants[i % product.variants.length]!;
    const { line } = priceItem(
      sb,
      { productId: product.id, variantId: variant.id, valueCents: null, quantity: 1, currency: product.currency },
      "item.",
    );
    const createdAtMs = Math.min(now, from + i * step);
    ws.orderSeq += 1;
    const order: Order = {
      id: newId("ord"),
      seq: ws.orderSeq,
      clientReference: `${options.referencePrefix}${String(i + 1).padStart(5, "0")}`,
      status: options.status,
      totalCents: line.unitCents * line.quantity,
      currency: line.currency,
      lines: [line],
      quoteId: null,
      createdAtMs,
      updatedAtMs: createdAtMs,
      createdByKeyId: "seed",
      artifacts: null,
      revealCount: 0,
      failureReason: options.status === "failed" ? "supplier_declined" : null,
    };
    if (options.status === "fulfilled" || options.status === "refunded")
      order.artifacts = generateArtifacts(sb.catalog, order, createdAtMs);
    ws.orders.set(order.id, order);
    seeded.push(order);
  }
  sb.changed();
  return seeded;
}
