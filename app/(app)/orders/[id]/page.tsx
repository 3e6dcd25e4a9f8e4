import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageSession } from "@/lib/auth/current";
import { isAppError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { getOrder, type OrderDetail } from "@/lib/orders/get-order";
import { PageHeader, Card } from "@/components/ui/page-header";
import { OrderStatusLive } from "@/components/orders/order-status-live";
import { can } from "@/lib/auth/permissions";
import { revealHistory } from "@/lib/reveal/reveal-history";
import { getSettings } from "@/lib/settings/get-settings";
import { RevealPanel } from "@/components/reveal/reveal-panel";
import { RevealHistory } from "@/components/reveal/reveal-history";
import { TableScroll } from "@/components/ui/table-scroll";

export const metadata: Metadata = { title: "Order" };

const utc = (iso: string) => `${iso.replace("T", " ").slice(0, 19)} UTC`;
const money = (minor: string | null, currency: string) => (minor === null ? "—" : formatMoney(minor, currency));

/** One order from the mirror: its live status, lines and totals, who placed it and when. Never codes. */
export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { actor } = await requirePageSession("orders.read");
  const { id } = await params;
  const order = await getOrder(actor, id).catch((error: unknown) => {
    if (isAppError(error) && (error.code === "not_found" || error.code === "invalid_request")) notFound();
    throw error;
  });

  const canReveal = can(actor.roles, "codes.reveal");
  const [history, settings] = await Promise.all([revealHistory(actor, order.id), getSettings()]);
  const viewSeconds = settings.revealViewSeconds;

  return (
    <>
      <PageHeader
        title={`Order ${order.clientReference}`}
        description={<span className="font-mono text-xs">{order.id}</span>}
        actions={
          <>
            {canReveal && order.status === "fulfilled" ? (
              <a href="#codes" className="rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700" data-testid="jump-to-reveal">Reveal codes ↓</a>
            ) : null}
            <Link href="/orders" className="px-2 py-2 text-sm font-medium text-brand-600 hover:underline">← All orders</Link>
          </>
        }
      />
      <div className="space-y-6">
        <Card>
          <h2 className="mb-4 text-base font-semibold text-slate-900">Progress</h2>
          <OrderStatusLive initial={{ id: order.id, status: order.status, createdAt: order.createdAt, updatedAt: order.updatedAt }} />
        </Card>
        <Card>
          <h2 className="mb-3 text-base font-semibold text-slate-900">Details</h2>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <Item label="Client reference" testId="order-client-reference">{order.clientReference}</Item>
            <Item label="Order id"><span className="font-mono text-xs">{order.id}</span></Item>
            <Item label="Origin" testId="order-placed-by">
              {order.origin === "elsewhere" ? (
                <span data-origin="elsewhere">Through the API elsewhere (a storefront or another client of this workspace)</span>
              ) : order.placedBy ? (
                <span data-origin="here">
                  Placed here by {order.placedBy.name} <span className="text-slate-500">({order.placedBy.email})</span>
                </span>
              ) : (
                <span data-origin="here">Placed here (by a background job; no person recorded)</span>
              )}
            </Item>
            <Item label="Placed at"><time dateTime={order.createdAt}>{utc(order.createdAt)}</time></Item>
            <Item label="Total" testId="order-total"><span className="font-semibold tabular-nums">{formatMoney(order.totalMinor, order.currency)}</span></Item>
            <Item label="Last synchronised"><time dateTime={order.syncedAt}>{utc(order.syncedAt)}</time></Item>
          </dl>
        </Card>
        <Card>
          <h2 className="mb-3 text-base font-semibold text-slate-900">Lines</h2>
          <OrderLines order={order} />
          <p className="mt-3 text-xs text-slate-500">Codes and PINs are never shown on this page, only in support&apos;s audited reveal step.</p>
        </Card>
        <Card>
          <h2 id="codes" className="mb-3 scroll-mt-20 text-base font-semibold text-slate-900">Codes</h2>
          {canReveal && order.status === "fulfilled" ? (
            <RevealPanel orderId={order.id} viewSeconds={viewSeconds} />
          ) : canReveal ? (
            <p className="text-sm text-slate-600" data-testid="reveal-unavailable">{NO_CODES[order.status] ?? NO_CODES.processing}</p>
          ) : (
            <p className="text-sm text-slate-600">Only support can reveal codes, with a reason, and every reveal is audited.</p>
          )}
          <h3 className="mb-2 mt-5 text-sm font-semibold text-slate-900">Reveal history</h3>
          <RevealHistory records={history} />
        </Card>
      </div>
    </>
  );
}

/** Why support cannot reveal now, by the order's status: only an open order will ever have codes. */
const NO_CODES: Record<string, string> = {
  reserved: "Codes can be revealed once the order is fulfilled. Reload the page when it is.",
  processing: "Codes can be revealed once the order is fulfilled. Reload the page when it is.",
  failed: "This order failed, so it has no codes; the reserved funds were released to the wallet.",
  refunded: "This order was refunded: its codes can no longer be revealed.",
};

function Item({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-slate-900" data-testid={testId}>{children}</dd>
    </div>
  );
}

function OrderLines({ order }: { order: OrderDetail }) {
  if (order.lines.length === 0) {
    return <p className="text-sm text-slate-600" data-testid="order-lines-empty">The Issuing Service has not reported the lines of this order yet.</p>;
  }
  return (
    <TableScroll label="Order lines">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="order-lines">
        <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-4">Product</th>
            <th scope="col" className="py-2 pr-4">Variant</th>
            <th scope="col" className="py-2 pr-4 text-right">Quantity</th>
            <th scope="col" className="py-2 pr-4 text-right">Unit price</th>
            <th scope="col" className="py-2 text-right">Line total</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {order.lines.map((line, i) => (
            <tr key={`${line.productId}-${line.variantId ?? ""}-${i}`}>
              <th scope="row" className="py-2 pr-4 text-left font-medium">
                {line.productName || line.productId}
                <span className="block font-mono text-xs font-normal text-slate-500">{line.productId}</span>
              </th>
              <td className="py-2 pr-4">
                {line.variantLabel || "—"}
                {line.faceValueMinor && line.faceCurrency ? <span className="block text-xs text-slate-500">Face value {formatMoney(line.faceValueMinor, line.faceCurrency)}</span> : null}
              </td>
              <td className="py-2 pr-4 text-right tabular-nums">{line.quantity}</td>
              <td className="py-2 pr-4 text-right tabular-nums">{money(line.unitPriceMinor, line.currency)}</td>
              <td className="py-2 text-right tabular-nums">{money(line.lineTotalMinor, line.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t-2 border-slate-200">
            <th scope="row" colSpan={4} className="py-2 pr-4 text-right font-semibold">Order total</th>
            <td className="py-2 text-right font-semibold tabular-nums">{formatMoney(order.totalMinor, order.currency)}</td>
          </tr>
        </tfoot>
      </table>
    </TableScroll>
  );
}
