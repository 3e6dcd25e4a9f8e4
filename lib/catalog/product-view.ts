import type { Product, ProductPage } from "@/lib/upstream/client";

/**
 * A catalog product as pages, components and the catalog API see it. The app owns this
 * shape: a change in the upstream's wire format is absorbed by toProductView, not by every
 * page. The fields (and their order, which the JSON API shows) are the catalog's today.
 */
export type ProductType = "gift-card" | "esim" | "phone-top-up";
export type VariantView = { id: string; displayValue: string; price: number; currency: string };
export type ProductImageView = {
  id: string;
  publicReference: string;
  url: string;
  altText: string;
  width: number;
  height: number;
  sortOrder: number;
  isPrimary: boolean;
};

export type ProductView = {
  id: string;
  type: ProductType;
  name: string;
  countryCode: string;
  /** The sell currency: variant prices and quotes are in it. */
  currency: string;
  isAvailable: boolean;
  variants: VariantView[];
  /** The value grid of a product bought by value, in the card's face currency (./face-value.ts). */
  minimumValue: number | null;
  maximumValue: number | null;
  valueStep: number | null;
  imageUrl: string;
  images: ProductImageView[];
  description: string;
  terms: string;
  category: string;
  isFeatured: boolean;
  sortOrder: number;
};

export type ProductPageView = { items: ProductView[]; offset: number; limit: number; hasMore: boolean };

export function toProductView(p: Product): ProductView {
  return {
    id: p.id,
    type: p.type,
    name: p.name,
    countryCode: p.countryCode,
    currency: p.currency,
    isAvailable: p.isAvailable,
    variants: p.variants.map((v) => ({ id: v.id, displayValue: v.displayValue, price: v.price, currency: v.currency })),
    minimumValue: p.minimumValue,
    maximumValue: p.maximumValue,
    valueStep: p.valueStep,
    imageUrl: p.imageUrl,
    images: p.images.map((i) => ({
      id: i.id,
      publicReference: i.publicReference,
      url: i.url,
      altText: i.altText,
      width: i.width,
      height: i.height,
      sortOrder: i.sortOrder,
      isPrimary: i.isPrimary,
    })),
    description: p.description,
    terms: p.terms,
    category: p.category,
    isFeatured: p.isFeatured,
    sortOrder: p.sortOrder,
  };
}

/** The picture a product's catalog card shows: its primary one, else its first. */
export function cardImage(product: Pick<ProductView, "images">): ProductImageView | undefined {
  return product.images.find((i) => i.isPrimary) ?? product.images[0];
}

export function toProductPageView(page: ProductPage): ProductPageView {
  return { items: page.items.map(toProductView), offset: page.offset, limit: page.limit, hasMore: page.hasMore };
}
