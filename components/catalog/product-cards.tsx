"use client";

import { Link } from "@/components/ui/link";
import { WatchButton } from "./watch-button";

/** A catalog card's content, already in words (product-card.tsx makes it). */
export type ProductCardView = {
  id: string;
  href: string;
  image: { src: string; alt: string; width: number; height: number } | null;
  featured: boolean;
  name: string;
  /** "Gift card · Germany · Entertainment" */
  about: string;
  price: string;
  /** The currency of a product priced only on the quote (no variants), else null. */
  pricedOnQuote: string | null;
  available: boolean;
  /** The person's watch of it (null: not watched); absent for those who may not watch. */
  watchId?: string | null;
};

/**
 * The first cards' pictures are on the first screen (one column on a phone, four on a wide
 * screen): they load at once, the first one first, as it is the page's largest paint; the rest
 * load as they come near the screen.
 */
const ON_FIRST_SCREEN = 4;

/** The catalog's cards, one list item each. */
export function ProductCards({ cards }: { cards: ProductCardView[] }) {
  return cards.map((card, index) => (
    <li key={card.id} className="relative">
      <Link
        href={card.href}
        className="group flex h-full flex-col overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200 hover:ring-brand-500"
        data-testid="product-card"
      >
        <div className="relative aspect-[16/10] bg-slate-100">
          {card.image ? (
            // eslint-disable-next-line @next/next/no-img-element -- served by our own image proxy, already sized by the upstream
            <img
              src={card.image.src}
              alt={card.image.alt}
              width={card.image.width}
              height={card.image.height}
              loading={index < ON_FIRST_SCREEN ? "eager" : "lazy"}
              fetchPriority={index === 0 ? "high" : "auto"}
              className="h-full w-full object-cover"
            />
          ) : null}
          {card.featured ? (
            <span className="absolute left-2 top-2 rounded bg-brand-600 px-1.5 py-0.5 text-xs font-semibold text-white">
              Featured
            </span>
          ) : null}
        </div>
        <div className="flex flex-1 flex-col gap-1 p-3">
          <h2 className="text-sm font-semibold text-slate-900 group-hover:text-brand-700">{card.name}</h2>
          <p className="text-xs text-slate-500">{card.about}</p>
          <p className="mt-auto pt-2 text-sm font-medium text-slate-900" data-testid="product-price">
            {card.price}
          </p>
          {card.pricedOnQuote ? <p className="text-xs text-slate-500">{`Priced in ${card.pricedOnQuote} on the quote`}</p> : null}
          <p className={`text-xs font-medium ${card.available ? "text-emerald-700" : "text-red-700"}`} data-testid="availability">
            {card.available ? "Available" : "Currently unavailable"}
          </p>
        </div>
      </Link>
      {/* Beside the card's link, not in it: a button inside a link is two controls in one. */}
      {card.watchId !== undefined ? (
        <WatchButton productId={card.id} productName={card.name} watchId={card.watchId} className="absolute right-2 top-2" />
      ) : null}
    </li>
  ));
}
