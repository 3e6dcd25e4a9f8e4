import { valueVariantId, type CatalogProduct } from "./catalog";
import type { Sandbox } from "./context";
import { formatAmount } from "./money";
import { conflict, notFound } from "./problem";
import { factorPpm, isAvailable, valuePriceCents, variantPriceCents } from "./product-view";
import type { OrderLine } from "./state";
import { createReader, readAmount, readCurrency, readInteger, readString, type JsonObject, type Reader } from "./validate";

// Pricing one purchase item: shared by POST /quotes and the inline `item` of POST /orders.

export type ItemInput = {
  productId: string;
  variantId: string | null;
  valueCents: number | null;
  quantity: number;
  currency: string;
};
export type PricedItem = { product: CatalogProduct; input: ItemInput; line: OrderLine; totalCents: number };

export const ITEM_FIELDS = ["productId", "variantId", "value", "quantity", "currency"] as const;
export const MAX_QUANTITY = 100;

// Reads the item fields; `prefix` is "" for a quote body and "item." for an inline order item.
export function readItem(r: Reader, obj: JsonObject, prefix: string): ItemInput | undefined {
  const productId = readString(r, obj, "productId", `${prefix}productId`, { required: true, max: 100 });
  const variantId = readString(r, obj, "variantId", `${prefix}variantId`, { max: 100 });
  const valueCents = readAmount(r, obj, "value", `${prefix}value`, { min: 1 });
  const quantity = readInteger(r, obj, "quantity", `${prefix}quantity`, { min: 1, max: MAX_QUANTITY }) ?? 1;
  const currency = readCurrency(r, obj, "currency", `${prefix}currency`);
  if (productId === undefined || currency === undefined) return undefined;
  return { productId, variantId: variantId ?? null, valueCents: valueCents ?? null, quantity, currency };
}

export function priceItem(sb: Sandbox, input: ItemInput, prefix: string): PricedItem {
  const product = sb.catalog.byId.get(input.productId);
  if (!product) throw notFound(`Product ${input.productId} does not exist in this workspace's catalog.`);
  const r = createReader();
  if (input.currency !== product.currency) r.add(`${prefix}currency`, `Must be the product's sell currency ${product.currency}.`);
  const factor = factorPpm(sb.state, product.id);
  let line: OrderLine | undefined;
  if (product.range) {
    if (input.variantId !== null) r.add(`${prefix}variantId`, "Must be null: this product is bought by value.");
    line = valueLine(r, product, input, factor, prefix);
  } else {
    if (input.valueCents !== null) r.add(`${prefix}value`, "Must be null: this product is bought by variant.");
    line = variantLine(r, product, input, factor, prefix);
  }
  r.fail();
  if (!line) throw new Error("unreachable: a priced line without errors");
  if (!isAvailable(sb.state, product)) {
    throw conflict("product_unavailable", `Product ${product.id} is not available at the moment.`, { productId: product.id });
  }
  return { product, input, line, totalCents: line.unitCents * line.quantity };
}

function valueLine(r: Reader, product: CatalogProduct, input: ItemInput, factor: number, prefix: string): OrderLine | undefined {
  const range = product.range;
  if (!range) return undefined;
  const value = input.valueCents;
  if (value === null) return void r.add(`${prefix}value`, "Is required for this product.");
  if (value < range.minCents || value > range.maxCents) {
    return void r.add(`${prefix}value`, `Must be between ${range.minCents / 100} and ${range.maxCents / 100}.`);
  }
  if ((value - range.minCents) % range.stepCents !== 0)
    return void r.add(`${prefix}value`, `Must be on the grid of step ${range.stepCents / 100} from ${range.minCents / 100}.`);
  return {
    ...lineBase(product, input),
    variantId: valueVariantId(product, value),
    variantLabel: formatAmount(value, product.faceCurrency),
    unitCents: valuePriceCents(value, range.ratePpm, factor),
    faceCents: value,
  };
}

function variantLine(
  r: Reader,
  product: CatalogProduct,
  input: ItemInput,
  factor: number,
  prefix: string,
): OrderLine | undefined {
  if (input.variantId === null) return void r.add(`${prefix}variantId`, "Is required for this product.");
  const variant = product.variants.find((v) => v.id === input.variantId);
  if (!variant) return void r.add(`${prefix}variantId`, "Is not a variant of this product.");
  return {
    ...lineBase(product, input),
    variantId: variant.id,
    variantLabel: variant.displayValue,
    unitCents: variantPriceCents(variant.basePriceCents, factor),
    faceCents: variant.faceCents,
  };
}

function lineBase(product: CatalogProduct, input: ItemInput) {
  return {
    productId: product.id,
    productType: product.type,
    productName: product.name,
    quantity: input.quantity,
    currency: product.currency,
    faceCurrency: product.faceCurrency,
  };
}
