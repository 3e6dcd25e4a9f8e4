import { Link } from "@/components/ui/link";
import type { ProductView } from "@/lib/catalog/product-view";
import { describePrice, imageSrc, PRODUCT_TYPE_LABELS } from "@/lib/catalog/describe-price";
import { regionName } from "@/lib/catalog/region-name";

export function ProductCard({ product }: { product: ProductView }) {
  const image = product.images.find((i) => i.isPrimary) ?? product.images[0];
  const country = regionName(product.countryCode);
  return (
    <li>
      <Link
        href={`/catalog/${encodeURIComponent(product.id)}`}
        className="group flex h-full flex-col overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200 hover:ring-brand-500"
        data-testid="product-card"
      >
        <div className="relative aspect-[16/10] bg-slate-100">
          {image ? (
            // eslint-disable-next-line @next/next/no-img-element -- served by our own image proxy, already sized by the upstream
            <img
              src={imageSrc(image.publicReference)}
              alt={image.altText}
              width={image.width}
              height={image.height}
              loading="lazy"
              className="h-full w-full object-cover"
            />
          ) : null}
          {product.isFeatured ? (
            <span className="absolute left-2 top-2 rounded bg-brand-600 px-1.5 py-0.5 text-xs font-semibold text-white">
              Featured
            </span>
          ) : null}
        </div>
        <div className="flex flex-1 flex-col gap-1 p-3">
          <h2 className="text-sm font-semibold text-slate-900 group-hover:text-brand-700">{product.name}</h2>
          <p className="text-xs text-slate-500">
            {PRODUCT_TYPE_LABELS[product.type]} · {country} · {product.category}
          </p>
          <p className="mt-auto pt-2 text-sm font-medium text-slate-900" data-testid="product-price">
            {describePrice(product)}
          </p>
          {product.variants.length === 0 ? (
            <p className="text-xs text-slate-500">Priced in {product.currency} on the quote</p>
          ) : null}
          <p
            className={`text-xs font-medium ${product.isAvailable ? "text-emerald-700" : "text-red-700"}`}
            data-testid="availability"
          >
            {product.isAvailable ? "Available" : "Currently unavailable"}
          </p>
        </div>
      </Link>
    </li>
  );
}
