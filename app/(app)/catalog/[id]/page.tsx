import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { randomBytes } from "node:crypto";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { getProduct } from "@/lib/catalog/get-product";
import { describePrice, describeProduct, imageSrc } from "@/lib/catalog/describe-price";
import { faceCurrencyOf, formatFaceValue } from "@/lib/catalog/face-value";
import { getSettings } from "@/lib/settings/get-settings";
import { getRemainingSpend } from "@/lib/spend/get-remaining-spend";
import { isAppError } from "@/lib/errors";
import { formatMoney, toMinor } from "@/lib/money";
import { PageHeader, Card } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { isRateLimited, RetryLater } from "@/components/ui/rate-limited";
import { OrderForm } from "@/components/ordering/order-form";
import { ProductIds } from "@/components/catalog/product-ids";
import { BackToCatalog } from "@/components/catalog/back-to-catalog";
import { WatchButton } from "@/components/catalog/watch-button";
import { PriceHistoryChart } from "@/components/catalog/price-history-chart";
import { getPriceHistory } from "@/lib/catalog-watch/price-history";
import { watchedAmong } from "@/lib/catalog-watch/manage-watches";

export const metadata: Metadata = { title: "Product" };

const WHEN = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** A card's look for what shares the page's card on a large screen and stands alone below it. */
const PHONE_CARD = "max-lg:rounded-lg max-lg:bg-white max-lg:p-5 max-lg:shadow-sm max-lg:ring-1 max-lg:ring-slate-200";

/** One product, and for a buyer its order form. Sent once the product is read, whole (ARCHITECTURE.md, "Waiting"). */
export default async function ProductPage({ params }: { params: Promise<{ id: string }> }) {
  const { actor } = await requirePageSession("catalog.read");
  const { id } = await params;
  const product = await getProduct(actor, decodedOrAsIs(id)).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    if (isAppError(error)) return error;
    throw error;
  });
  if (isAppError(product)) {
    return (
      <>
        <BackToCatalog />
        <PageHeader title="Product" description={<span className="font-mono text-xs">{decodedOrAsIs(id)}</span>} />
        {isRateLimited(product) ? (
          <RetryLater error={product} title="We could not load this product yet" testId="product-retry-later" />
        ) : (
          <Notice tone="error" title="The product could not be loaded" correlationId={product.correlationId}>
            {product.message}{" "}
            <Link href={`/catalog/${id}`} className="font-medium underline">
              Try again
            </Link>
          </Notice>
        )}
      </>
    );
  }

  const images = [...product.images].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || a.sortOrder - b.sortOrder);
  const canOrder = can(actor.roles, "orders.create");
  const canWatch = can(actor.roles, "catalog.watch");
  const [history, watches] = await Promise.all([
    getPriceHistory(actor, product.id),
    canWatch ? watchedAmong(actor, [product.id]) : null,
  ]);
  const settings = canOrder ? await getSettings() : null;
  const spend = canOrder ? await getRemainingSpend(actor, product.currency) : null;
  const reference = `${new Date().toISOString().slice(0, 10).replace(/-/g, "")}-${randomBytes(3).toString("hex").toUpperCase()}`;
  const money = (amount: number) => formatMoney(toMinor(amount, product.currency), product.currency);
  const faceCurrency = faceCurrencyOf(product);
  const face = (amount: number) => formatFaceValue(amount, faceCurrency);

  return (
    <>
      <BackToCatalog />
      <PageHeader
        title={product.name}
        description={describeProduct(product)}
        actions={
          watches ? (
            <WatchButton productId={product.id} productName={product.name} watchId={watches.get(product.id) ?? null} />
          ) : undefined
        }
      />
      {/*
        One column below lg: the price, then the order form, then the pictures and the rest (the form
        was 1,580 px down a phone's 2,320 px page). Two from lg: the form beside the product, its
        column spanning both rows of the left one (the second row takes what height is left).
      */}
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr] lg:grid-rows-[auto_1fr]">
        <Card className="max-lg:contents lg:col-start-1 lg:row-start-1">
          {images.length ? (
            <div className={`grid gap-3 sm:grid-cols-2 max-lg:order-1 ${PHONE_CARD}`}>
              {images.map((image, i) => (
                // eslint-disable-next-line @next/next/no-img-element -- served by our own image proxy
                <img
                  key={image.id}
                  // The primary picture is the page's largest paint in a phone's first screen: asked for first.
                  fetchPriority={i === 0 ? "high" : undefined}
                  src={imageSrc(image.publicReference)}
                  alt={image.altText}
                  width={image.width}
                  height={image.height}
                  className="w-full rounded-md bg-slate-100 object-cover"
                />
              ))}
            </div>
          ) : null}
          <dl className={`mt-4 grid grid-cols-2 gap-2 text-sm max-lg:mt-0 ${PHONE_CARD}`}>
            <dt className="text-slate-500">{product.variants.length ? "Price" : "Value"}</dt>
            <dd className="font-medium" data-testid="product-price">
              {describePrice(product)}
            </dd>
            <dt className="text-slate-500">Sell currency</dt>
            <dd>{product.currency}</dd>
            <dt className="text-slate-500">Availability</dt>
            <dd className={product.isAvailable ? "text-emerald-700" : "text-red-700"} data-testid="availability">
              {product.isAvailable ? "Available" : "Currently unavailable"}
            </dd>
          </dl>
        </Card>
        <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          {canOrder && settings ? (
            <Card>
              <h2 className="mb-3 text-base font-semibold">Order</h2>
              {product.isAvailable ? null : (
                <div className="mb-3">
                  <Notice tone="warning">
                    Shown as unavailable right now; the Issuing Service checks again when you quote or order.
                  </Notice>
                </div>
              )}
              <OrderForm
                product={product}
                defaultReference={reference}
                confirmAbove={settings.orderConfirmationAmount}
                spend={spend}
                draftOwner={actor.staffId}
              />
            </Card>
          ) : (
            <Card>
              <p className="text-sm text-slate-600">Ordering is for buyers. Ask an admin if you need the buyer role.</p>
            </Card>
          )}
        </div>
        <div className="space-y-6 max-lg:order-1 lg:col-start-1 lg:row-start-2">
          {/* Buyers see the variants once, as the order form's choices. */}
          {product.variants.length ? (
            canOrder ? null : (
              <Card>
                <h2 className="text-base font-semibold">Variants</h2>
                <table className="mt-2 w-full text-sm">
                  <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
                    <tr>
                      <th scope="col" className="py-1">
                        Variant
                      </th>
                      <th scope="col" className="py-1 text-right">
                        Price
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {product.variants.map((v) => (
                      <tr key={v.id}>
                        <td className="py-1.5">{v.displayValue}</td>
                        <td className="py-1.5 text-right font-medium">{money(v.price)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Card>
            )
          ) : (
            <Card>
              <h2 className="text-base font-semibold">Value range</h2>
              <p className="mt-1 text-sm text-slate-700" data-testid="value-range">
                Any face value from {face(product.minimumValue ?? 0)} to {face(product.maximumValue ?? 0)}
                {product.valueStep ? <> in steps of {face(product.valueStep)}</> : null}
                {faceCurrency ? null : " (in the card's own currency, see the description)"}. The price in {product.currency}{" "}
                comes with the quote.
              </p>
            </Card>
          )}
          <Card>
            <h2 className="text-base font-semibold">Price history</h2>
            {history ? (
              <>
                <PriceHistoryChart history={history} />
                <p className="mt-3 text-sm text-slate-600" data-testid="last-availability-change">
                  {history.lastAvailabilityChange
                    ? `${history.lastAvailabilityChange.change === "available" ? "Available again" : "Became unavailable"} on ${WHEN.format(Date.parse(history.lastAvailabilityChange.at))} UTC.`
                    : "No change of availability seen yet."}
                </p>
              </>
            ) : (
              <p className="mt-1 text-sm text-slate-600">
                Not known yet: prices are kept from the first time this app reads the product.
              </p>
            )}
          </Card>
          <ProductIds product={product} canOrder={canOrder} />
          <Card>
            <h2 className="text-base font-semibold">Description</h2>
            <p className="mt-1 whitespace-pre-line text-sm text-slate-700">{product.description}</p>
            <h2 className="mt-4 text-base font-semibold">Terms</h2>
            <p className="mt-1 whitespace-pre-line text-sm text-slate-700">{product.terms}</p>
          </Card>
        </div>
      </div>
    </>
  );
}

/** A lone "%" in an id (the segment arrives decoded already) must be a not-found, not a URIError. */
function decodedOrAsIs(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}
