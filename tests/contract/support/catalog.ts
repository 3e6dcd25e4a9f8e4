import type { TestSandbox, Json } from "./client";

// Finds catalog products of a given shape so tests do not depend on particular generated ids.

export async function allProducts(sb: TestSandbox): Promise<Json[]> {
  const items: Json[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await sb.api(`/products?limit=100&offset=${offset}`);
    items.push(...res.body.items);
    if (!res.body.hasMore) return items;
  }
}

export async function findProduct(sb: TestSandbox, predicate: (p: Json) => boolean): Promise<Json> {
  const product = (await allProducts(sb)).find(predicate);
  if (!product) throw new Error("no product matches the test's needs");
  return product;
}

export const isVariantGiftCard = (p: Json) =>
  p.type === "gift-card" && p.isAvailable && p.variants.length > 0 && p.currency === "USD";
export const isValueGiftCard = (p: Json) =>
  p.type === "gift-card" && p.isAvailable && p.minimumValue !== null && p.currency === "USD";
export const isTopUp = (p: Json) => p.type === "phone-top-up" && p.isAvailable && p.variants.length > 0 && p.currency === "USD";

export function inlineItem(product: Json, quantity = 1): Json {
  return product.variants.length > 0
    ? { productId: product.id, variantId: product.variants[0].id, quantity, currency: product.currency }
    : { productId: product.id, variantId: null, value: product.minimumValue, quantity, currency: product.currency };
}
