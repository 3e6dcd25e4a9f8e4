import type { ProductView } from "@/lib/catalog/product-view";
import { Card } from "@/components/ui/page-header";
import { CopyButton } from "@/components/ui/copy-button";

/**
 * The ids a bulk-order CSV needs (productId, and variantId for products sold by variant),
 * each with a copy button, and a template file prefilled for this product.
 */
export function ProductIds({ product, canOrder }: { product: ProductView; canOrder: boolean }) {
  return (
    <Card>
      <h2 className="text-base font-semibold">Ids for a bulk order file</h2>
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="text-slate-500">productId</span>
        <code className="break-all font-mono text-xs text-slate-900" data-testid="product-id">
          {product.id}
        </code>
        <CopyButton value={product.id} label="Copy" name="Copy the product id" what="the id" testId="copy-product-id" />
      </div>
      {product.variants.length ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-brand-600 hover:underline">
            variantId of each variant ({product.variants.length})
          </summary>
          <ul className="mt-2 divide-y divide-slate-100" data-testid="variant-ids">
            {product.variants.map((v) => (
              <li key={v.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5">
                <span className="min-w-[6rem] text-slate-700">{v.displayValue}</span>
                <code className="break-all font-mono text-xs text-slate-900">{v.id}</code>
                <CopyButton
                  value={v.id}
                  label="Copy"
                  name={`Copy the variant id of ${v.displayValue}`}
                  what="the id"
                  testId="copy-variant-id"
                />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {canOrder ? (
        <p className="mt-3 text-sm">
          <a
            href={`/api/bulk-orders/template?productId=${encodeURIComponent(product.id)}`}
            download
            className="font-medium text-brand-600 hover:underline"
            data-testid="bulk-template"
          >
            Download a CSV template for this product
          </a>
          <span className="text-slate-500"> · fill in quantities and references, then upload it under Orders → Bulk orders.</span>
        </p>
      ) : null}
    </Card>
  );
}
