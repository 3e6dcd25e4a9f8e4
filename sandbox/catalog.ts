import {
  BRANDS,
  COUNTRIES,
  ESIM_PLANS,
  ESIM_PROVIDERS,
  GIFT_CARD_DENOMINATIONS,
  OPERATORS,
  TOP_UP_BUNDLES,
  UNITS_PER_USD,
  sellCurrencyFor,
  type Country,
} from "./catalog-data";
import { seededRandom, stableHash, type Random } from "./prng";

// The deterministic demo catalog: the same seed gives the same products, ids, prices and image references.

export type ProductType = "gift-card" | "esim" | "phone-top-up";
export type CatalogVariant = { id: string; displayValue: string; faceCents: number; basePriceCents: number };
export type ValueRange = { minCents: number; maxCents: number; stepCents: number; ratePpm: number };
export type CatalogImage = {
  id: string;
  publicReference: string;
  width: number;
  height: number;
  altText: string;
  sortOrder: number;
  isPrimary: boolean;
  hue: number;
};

export type CatalogProduct = {
  id: string;
  type: ProductType;
  name: string;
  countryCode: string;
  currency: string;
  faceCurrency: string;
  available: boolean;
  variants: CatalogVariant[];
  range: ValueRange | null;
  images: CatalogImage[];
  description: string;
  terms: string;
  category: string;
  isFeatured: boolean;
  sortOrder: number;
  withPin: boolean;
};

export type Catalog = {
  products: CatalogProduct[]; // in listing order: featured first, then sortOrder
  byId: Map<string, CatalogProduct>;
  imagesByRef: Map<string, { product: CatalogProduct; image: CatalogImage }>;
  publishedAtMs: number;
  jsonCache: Map<string, string>; // product id → JSON text
  pageCache: Map<string, Buffer>; // normalized query → encoded page (the hot path skips all re-encoding)
};

type Draft = Omit<CatalogProduct, "id" | "available" | "images" | "isFeatured" | "sortOrder" | "terms">;

export function buildCatalog(seed: string): Catalog {
  const random = seededRandom(`catalog:${seed}`);
  const drafts = [...giftCards(random), ...esims(random), ...topUps(random)];
  const sortOrders = random.sample(
    drafts.map((_, i) => i + 1),
    drafts.length,
  );
  const products = drafts.map((draft, index): CatalogProduct => {
    const id = `prd_${stableHash(`${seed}:product:${index}`)}`;
    return {
      ...draft,
      id,
      available: !random.chance(0.07),
      isFeatured: random.chance(0.06),
      sortOrder: sortOrders[index] ?? index + 1,
      images: imagesFor(seed, index, draft.name, random),
      variants: draft.variants.map((v, i) => ({ ...v, id: `var_${stableHash(`${seed}:variant:${index}:${i}`)}` })),
      terms: "Sandbox product: codes are not redeemable. Non-refundable once revealed. Valid for 12 months from issue.",
    };
  });
  products.sort((a, b) => Number(b.isFeatured) - Number(a.isFeatured) || a.sortOrder - b.sortOrder);
  const imagesByRef = new Map<string, { product: CatalogProduct; image: CatalogImage }>();
  for (const product of products) for (const image of product.images) imagesByRef.set(image.publicReference, { product, image });
  return {
    products,
    byId: new Map(products.map((p) => [p.id, p])),
    imagesByRef,
    publishedAtMs: Date.UTC(2025, 0, 1),
    jsonCache: new Map(),
    pageCache: new Map(),
  };
}

// Sell units per face unit, with the workspace's wholesale discount, in parts per million.
function ratePpm(faceCurrency: string, faceUnitsPerUsd: number, sellCurrency: string, discount: number): number {
  const sellUnitsPerUsd = UNITS_PER_USD[sellCurrency] ?? 1;
  return Math.max(1, Math.round((sellUnitsPerUsd / faceUnitsPerUsd) * (1 - discount) * 1_000_000));
}

// Round denominations for currencies with many units per dollar (1 000 JPY rather than 10 JPY).
function faceScale(unitsPerUsd: number): number {
  return unitsPerUsd < 10 ? 1 : 10 ** Math.floor(Math.log10(unitsPerUsd));
}

function priced(faceCents: number, rate: number): number {
  return Math.round((faceCents * rate) / 1_000_000);
}

function giftCards(random: Random): Draft[] {
  return BRANDS.flatMap((brand) =>
    random.sample(COUNTRIES, 9).map((country): Draft => {
      const currency = sellCurrencyFor(country.code);
      const rate = ratePpm(country.currency, country.unitsPerUsd, currency, random.int(10, 80) / 1000);
      const scale = faceScale(country.unitsPerUsd);
      const byValue = random.chance(0.4);
      return {
        type: "gift-card",
        name: `${brand.name} Gift Card – ${country.name}`,
        countryCode: country.code,
        currency,
        faceCurrency: country.currency,
        variants: byValue ? [] : GIFT_CARD_DENOMINATIONS.map((d) => faceVariant(d * scale, country, rate)),
        range: byValue
          ? { minCents: 10 * scale * 100, maxCents: 500 * scale * 100, stepCents: 5 * scale * 100, ratePpm: rate }
          : null,
        description: `Digital ${brand.name} gift card for ${country.name}. Face values are in ${country.currency}.`,
        category: brand.category,
        withPin: brand.withPin,
      };
    }),
  );
}

function esims(random: Random): Draft[] {
  return ESIM_PROVIDERS.flatMap((provider) =>
    random.sample(COUNTRIES, 32).map((country): Draft => {
      const currency = sellCurrencyFor(country.code);
      const rate = ratePpm("USD", 1, currency, random.int(0, 50) / 1000);
      return {
        type: "esim",
        name: `${provider} eSIM ${country.name}`,
        countryCode: country.code,
        currency,
        faceCurrency: "USD",
        variants: ESIM_PLANS.map(([label, faceCents]) => ({
          id: "",
          displayValue: label,
          faceCents,
          basePriceCents: priced(faceCents, rate),
        })),
        range: null,
        description: `Prepaid data eSIM for travel in ${country.name}, delivered as a claim link with an activation code.`,
        category: "Mobile Data",
        withPin: false,
      };
    }),
  );
}

function topUps(random: Random): Draft[] {
  return COUNTRIES.flatMap((country) =>
    random.sample(OPERATORS, 2).map((operator): Draft => {
      const currency = sellCurrencyFor(country.code);
      const rate = ratePpm(country.currency, country.unitsPerUsd, currency, random.int(0, 40) / 1000);
      const scale = faceScale(country.unitsPerUsd);
      const byValue = random.chance(0.75);
      const step = random.pick([1, 5]) * scale * 100;
      return {
        type: "phone-top-up",
        name: `${operator} ${country.name} Top-Up`,
        countryCode: country.code,
        currency,
        faceCurrency: country.currency,
        variants: byValue ? [] : TOP_UP_BUNDLES.map((b) => faceVariant(b * scale, country, rate)),
        range: byValue ? { minCents: 5 * scale * 100, maxCents: 100 * scale * 100, stepCents: step, ratePpm: rate } : null,
        description: `Airtime top-up for ${operator} subscribers in ${country.name}. Values are in ${country.currency}; the phone number is required.`,
        category: "Mobile Top-Up",
        withPin: false,
      };
    }),
  );
}

function faceVariant(faceUnits: number, country: Country, rate: number): CatalogVariant {
  const faceCents = faceUnits * 100;
  return { id: "", displayValue: `${faceUnits} ${country.currency}`, faceCents, basePriceCents: priced(faceCents, rate) };
}

function imagesFor(seed: string, index: number, name: string, random: Random): CatalogImage[] {
  const count = random.int(1, 3);
  return Array.from({ length: count }, (_, i) => {
    const hash = stableHash(`${seed}:image:${index}:${i}`, 24);
    return {
      id: `pim_${hash.slice(0, 16)}`,
      publicReference: `img_${hash}`,
      width: i === 0 ? 480 : 320,
      height: 320,
      altText: i === 0 ? name : `${name} (${i + 1})`,
      sortOrder: i,
      isPrimary: i === 0,
      hue: random.int(0, 359),
    };
  });
}

export function imageUrl(publicReference: string): string {
  return `/api/v1/catalog-product-images/${publicReference}`;
}

// A value purchase has no catalog variant; order lines still carry an opaque variant id for it.
export function valueVariantId(product: CatalogProduct, valueCents: number): string {
  return `val_${product.id.slice(4)}_${valueCents}`;
}

// Product data changed (control plane): every cached rendering may be stale.
/** A copy of `source` under `name`, with ids of its own, listed last (the control plane's `POST /products`). */
export function addProductCopy(catalog: Catalog, source: CatalogProduct, name: string): CatalogProduct {
  const index = catalog.products.length;
  const key = `${source.id}:copy:${index}:${name}`;
  const product: CatalogProduct = {
    ...source,
    id: `prd_${stableHash(key)}`,
    name,
    available: true,
    isFeatured: false,
    sortOrder: Math.max(0, ...catalog.products.map((p) => p.sortOrder)) + 1,
    variants: source.variants.map((v, i) => ({ ...v, id: `var_${stableHash(`${key}:variant:${i}`)}` })),
  };
  catalog.products.push(product);
  catalog.byId.set(product.id, product);
  catalog.pageCache.clear();
  return product;
}

export function invalidateRenderings(catalog: Catalog, productId: string): void {
  catalog.jsonCache.delete(productId);
  catalog.pageCache.clear();
}
