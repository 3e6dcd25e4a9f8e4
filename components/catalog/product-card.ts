import { cardImage, type ProductView } from "@/lib/catalog/product-view";
import { describePrice, describeProduct, imageSrc } from "@/lib/catalog/describe-price";
import type { ProductCardView } from "./product-cards";

/**
 * A product as its catalog card shows it, in words: prices and country names are formatted
 * here on the server, so that the browser shows the same text, and the cards are laid out by
 * a client component (product-cards.tsx; components/orders/orders-table.tsx says why). `watches`
 * (product id → watch id) only for a person who may watch: the card then has its watch button.
 */
export function productCard(product: ProductView, watches?: Map<string, string>): ProductCardView {
  const image = cardImage(product);
  return {
    id: product.id,
    href: `/catalog/${encodeURIComponent(product.id)}`,
    image: image ? { src: imageSrc(image.publicReference), alt: image.altText, width: image.width, height: image.height } : null,
    featured: product.isFeatured,
    name: product.name,
    about: describeProduct(product),
    price: describePrice(product),
    pricedOnQuote: product.variants.length === 0 ? product.currency : null,
    available: product.isAvailable,
    ...(watches ? { watchId: watches.get(product.id) ?? null } : {}),
  };
}
