import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { requirePageSession } from "@/lib/auth/current";
import { isAppError } from "@/lib/errors";
import { rateLimitedAsValue, RetryLater } from "@/components/ui/rate-limited";
import { formatMoney } from "@/lib/money";
import { getOrder, type OrderDetail } from "@/lib/orders/get-order";
import { PageHeader, Card } from "@/components/ui/page-header";
import { OrderStatusLive } from "@/components/orders/order-status-live";
import { can } from "@/lib/auth/permissions";
import { revealHistory } from "@/lib/reveal/reveal-history";
import { getSettings } from "@/lib/settings/get-settings";
import { RevealPanel } from "@/components/reveal/reveal-panel";
import { proofMethods } from "@/lib/auth/step-up";
import { RevealHistory } from "@/components/reveal/reveal-history";
import { DataTable, type Column } from "@/components/ui/data-table";
import { utcTime } from "@/components/ui/utc-time";

export const metadata: Metadata = { title: "Order" };

const money = (minor: string | null, currency: string) => (minor === null ? "—" : formatMoney(minor, currency));

/**
 * One order from the mirror: its live status, lines and totals, who placed it and when. Never codes.
 * Sent once the order is read, whole (no route skeleton: ARCHITECTURE.md, "Waiting").
 */
export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { actor, sessionId } = await requirePageSession("orders.read");
  const { id } = await params;
  const order = await getOrder(actor, id).catch((error: unknown) => {
    if (isAppError(error) && (error.code === "not_found" || error.code === "invalid_request")) notFound();
    return rateLimitedAsValue(error);
  });
  if (isAppError(order)) {
    // Not in this app's mirror, and the Issuing Service could not be asked yet: the page's frame and a countdown.
    return (
      <>
        <PageHeader title="Order" description={<span className="font-mono text-xs">{id}</span>} actions={<AllOrdersLink />} />
        <RetryLater error={order} title="We could not look up this order yet" testId="order-rate-limited" />
      </>
    );
  }

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
              <a
                href="#codes"
                className="rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
                data-testid="jump-to-reveal"
              >
                Reveal codes ↓
              </a>
            ) : null}
            <AllOrdersLink />
          </>
        }
      />
      <div className="space-y-6">
        <Card>
          <h2 className="mb-4 text-base font-semibold text-slate-900">Progress</h2>
          <OrderStatusLive
            initial={{ id: order.id, status: order.status, createdAt: order.createdAt, updatedAt: order.updatedAt }}
          />
        </Card>
        <Card>
          <h2 className="mb-3 text-base font-semibold text-slate-900">Details</h2>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <Item label="Client reference" testId="order-client-reference">
              {order.clientReference}
            </Item>
            <Item label="Order id">
              <span className="font-mono text-xs">{order.id}</span>
            </Item>
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
            <Item label="Placed at">
              <time dateTime={order.createdAt}>{utcTime(order.createdAt, "second")}</time>
            </Item>
            <Item label="Total" testId="order-total">
              <span className="font-semibold tabular-nums">{formatMoney(order.totalMinor, order.currency)}</span>
            </Item>
            <Item label="Last synchronised">
              <time dateTime={order.syncedAt}>{utcTime(order.syncedAt, "second")}</time>
            </Item>
          </dl>
        </Card>
        <Card>
          <h2 className="mb-3 text-base font-semibold text-slate-900">Lines</h2>
          <OrderLines order={order} />
          <p className="mt-3 text-xs text-slate-500">
            Codes and PINs are never shown on this page, only in support&apos;s audited reveal step.
          </p>
        </Card>
        <Card>
          <h2 id="codes" className="mb-3 scroll-mt-20 text-base font-semibold text-slate-900">
            Codes
          </h2>
          {canReveal && order.status === "fulfilled" ? (
            <RevealPanel
              orderId={order.id}
              viewSeconds={viewSeconds}
              askPassword={(await proofMethods(actor.staffId, sessionId)).includes("password")}
            />
          ) : canReveal ? (
            <p className="text-sm text-slate-600" data-testid="reveal-unavailable">
              {NO_CODES[order.status] ?? NO_CODES.processing}
            </p>
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

function AllOrdersLink() {
  return (
    <Link href="/orders" className="px-2 py-2 text-sm font-medium text-brand-600 hover:underline">
      ← All orders
    </Link>
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
      <dd className="mt-0.5 text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

type OrderLine = OrderDetail["lines"][number];

const LINE_COLUMNS: Column<OrderLine>[] = [
  {
    key: "product",
    header: "Product",
    rowHeader: true,
    cell: (line) => (
      <>
        {line.productName || line.productId}
        <span className="block font-mono text-xs font-normal text-slate-500">{line.productId}</span>
      </>
    ),
  },
  {
    key: "variant",
    header: "Variant",
    cell: (line) => (
      <>
        {line.variantLabel || "—"}
        {line.faceValueMinor && line.faceCurrency ? (
          <span className="block text-xs text-slate-500">Face value {formatMoney(line.faceValueMinor, line.faceCurrency)}</span>
        ) : null}
      </>
    ),
  },
  { key: "quantity", header: "Quantity", align: "right", className: "tabular-nums", cell: (line) => line.quantity },
  {
    key: "unit",
    header: "Unit price",
    align: "right",
    className: "tabular-nums",
    cell: (line) => money(line.unitPriceMinor, line.currency),
  },
  {
    key: "total",
    header: "Line total",
    align: "right",
    className: "tabular-nums",
    cell: (line) => money(line.lineTotalMinor, line.currency),
  },
];

function OrderLines({ order }: { order: OrderDetail }) {
  return (
    <DataTable
      rows={order.lines}
      row={(line) => ({ key: `${line.productId}-${line.variantId ?? ""}-${order.lines.indexOf(line)}` })}
      name={{ label: "Order lines", testId: "order-lines" }}
      variant="plain"
      columns={LINE_COLUMNS}
      empty={{ text: "The Issuing Service has not reported the lines of this order yet.", testId: "order-lines-empty" }}
      footer={
        <tr className="border-t-2 border-slate-200">
          <th scope="row" colSpan={4} className="py-2 pr-4 text-right font-semibold">
            Order total
          </th>
          <td className="py-2 text-right font-semibold tabular-nums">{formatMoney(order.totalMinor, order.currency)}</td>
        </tr>
      }
    />
  );
}
