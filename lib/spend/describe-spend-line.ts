import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { faceCurrencyOf } from "@/lib/catalog/face-value";
import { getProduct } from "@/lib/catalog/get-product";
import type { ProductView } from "@/lib/catalog/product-view";
import { logger } from "@/lib/log";
import { toMinor } from "@/lib/money";
import type { SpendAmount } from "./check-spend";
import { unitMinorOf, type PricedBy, type StoredSpendLine } from "./spend-lines";

export type LineBasis = {
  item: { productId: string; variantId: string | null; value: number | null; quantity: number };
  amount: SpendAmount;
  pricedBy: PricedBy;
  pricedAt: Date;
};

/**
 * The line an order under spend controls would put before an approver: the product's name and
 * the variant's label from the catalog (the client's cached read, which the product page the
 * buyer ordered from has just filled), with the total the gate counts. A catalog that cannot be
 * read leaves the names out; it never holds up the order.
 */
export async function describeSpendLine(actor: Actor, basis: LineBasis): Promise<StoredSpendLine> {
  const { item, amount } = basis;
  let product: ProductView | null = null;
  try {
    product = await getProduct(actor, item.productId);
  } catch (error) {
    logger.warn("spend line: the product could not be read; its name is left out", {
      productId: item.productId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  const variant = product?.variants.find((v) => v.id === item.variantId) ?? null;
  const listedUnit = variant ? toMinor(variant.price, amount.currency) : null;
  // A ceiling is not a price: the unit is the list price, never the ceiling divided out.
  const unit = basis.pricedBy === "ceiling" ? listedUnit : unitMinorOf(amount.amountMinor, item.quantity, listedUnit);
  return {
    productId: item.productId,
    productName: product?.name ?? null,
    variantId: item.variantId,
    variantLabel: variant?.displayValue ?? null,
    faceValue: item.value,
    faceCurrency: product && item.value !== null ? faceCurrencyOf(product) : null,
    quantity: item.quantity,
    unitMinor: unit === null ? null : unit.toString(),
    totalMinor: amount.amountMinor.toString(),
    currency: amount.currency,
    pricedBy: basis.pricedBy,
    pricedAt: basis.pricedAt.toISOString(),
  };
}
