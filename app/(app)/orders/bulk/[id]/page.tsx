import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { requirePageSession } from "@/lib/auth/current";
import { getBulkOrder } from "@/lib/bulk-orders/get-bulk-order";
import { isAppError } from "@/lib/errors";
import { can } from "@/lib/auth/permissions";
import { getRemainingSpend } from "@/lib/spend/get-remaining-spend";
import { PageHeader } from "@/components/ui/page-header";
import { BulkOrderLive } from "@/components/bulk-orders/bulk-order-live";
import { plural, utcMinute } from "@/components/bulk-orders/bulk-format";
import { Notice } from "@/components/ui/notice";
import { bulkPriceNote } from "@/lib/spend/spend-price-notes";

export const metadata: Metadata = { title: "Bulk order" };

export default async function BulkOrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { actor } = await requirePageSession("orders.read");
  const { id } = await params;
  const view = await getBulkOrder(actor, id).catch((error: unknown) => {
    if (isAppError(error) && (error.code === "not_found" || error.code === "invalid_request")) notFound();
    throw error;
  });
  const spend =
    view.state === "draft" && view.isOwner && can(actor.roles, "orders.create")
      ? await Promise.all(view.totals.map((t) => getRemainingSpend(actor, t.currency)))
      : [];
  // Rows not placed yet whose prices moved since the upload (the catalog watch's prices): said before confirming.
  const priceNote = view.state === "draft" || view.state === "awaiting_approval" ? await bulkPriceNote(view.id) : null;
  return (
    <>
      <PageHeader
        title={view.fileName ?? "Bulk order"}
        description={`Bulk order of ${plural(view.rowCount, "row")}, uploaded ${utcMinute(view.createdAt)}.`}
        actions={
          <Link
            href="/orders/bulk"
            className="rounded-md bg-white px-3.5 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
          >
            All bulk orders
          </Link>
        }
      />
      {priceNote ? (
        <Notice className="mb-4" tone="warning" testId="price-moved">
          {priceNote}
        </Notice>
      ) : null}
      <BulkOrderLive initial={view} spend={spend} />
    </>
  );
}
