import { imageUrl, type Catalog, type CatalogProduct } from "./catalog";
import { roundDiv, toAmount } from "./money";
import type { State } from "./state";

// The Product resource as the contract shows it, with the control plane's overrides applied.

export const UNIT_FACTOR_PPM = 1_000_000;

export function factorPpm(state: State, productId: string): number {
  return state.productOverrides.get(productId)?.priceFactorPpm ?? UNIT_FACTOR_PPM;
}

export function isAvailable(state: State, product: CatalogProduct): boolean {
  return state.productOverrides.get(product.id)?.isAvailable ?? product.available;
}

export function variantPriceCents(basePriceCents: number, factor: number): number {
  return Math.max(1, roundDiv(BigInt(basePriceCents) * BigInt(factor), BigInt(UNIT_FACTOR_PPM)));
}

export function valuePriceCents(valueCents: number, ratePpm: number, factor: number): number {
  return Math.max(
    1,
    roundDiv(BigInt(valueCents) * BigInt(ratePpm) * BigInt(factor), BigInt(UNIT_FACTOR_PPM) * BigInt(UNIT_FACTOR_PPM)),
  );
}

export function productView(state: State, product: CatalogProduct): Record<string, unknown> {
  const factor = factorPpm(state, product.id);
  const primary = product.images.find((image) => image.isPrimary) ?? product.images[0];
  return {
    id: product.id,
    type: product.type,
    name: product.name,
    countryCode: product.countryCode,
    currency: product.currency,
    isAvailable: isAvailable(state, product),
    variants: product.variants.map((v) => ({
      id: v.id,
      displayValue: v.displayValue,
      price: toAmount(variantPriceCents(v.basePriceCents, factor)),
      currency: product.currency,
    })),
    minimumValue: product.range ? toAmount(product.range.minCents) : null,
    maximumValue: product.range ? toAmount(product.range.maxCents) : null,
    valueStep: product.range ? toAmount(product.range.stepCents) : null,
    imageUrl: primary ? imageUrl(primary.publicReference) : "",
    images: product.images.map((image) => ({
      id: image.id,
      publicReference: image.publicReference,
      url: imageUrl(image.publicReference),
      altText: image.altText,
      width: image.width,
      height: image.height,
      sortOrder: image.sortOrder,
      isPrimary: image.isPrimary,
    })),
    description: product.description,
    terms: product.terms,
    category: product.category,
    isFeatured: product.isFeatured,
    sortOrder: product.sortOrder,
  };
}

// Catalog pages are the hot path, so each product's JSON text is cached until the control plane changes it.
export function productJson(state: State, catalog: Catalog, product: CatalogProduct): string {
  let text = catalog.jsonCache.get(product.id);
  if (text === undefined) {
    text = JSON.stringify(productView(state, product));
    catalog.jsonCache.set(product.id, text);
  }
  return text;
}
