import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { requirePageSession } from "@/lib/auth/current";
import { countBulkOrders, listBulkOrders } from "@/lib/bulk-orders/list-bulk-orders";
import { MAX_CSV_ROWS } from "@/lib/bulk-orders/parse-csv";
import { MAX_ROW_QUANTITY } from "@/lib/bulk-orders/row-input";
import { MAX_DISTINCT_PRODUCTS } from "@/lib/bulk-orders/check-rows";
import { Card, PageHeader } from "@/components/ui/page-header";
import { UploadForm } from "@/components/bulk-orders/upload-form";
import { BulkOrdersList } from "@/components/bulk-orders/bulk-orders-list";
import { Pager, countText } from "@/components/ui/pager";

export const metadata: Metadata = { title: "Bulk orders" };

const COLUMNS: [string, string][] = [
  ["productId", "The product's id, as in the catalog. Required."],
  ["variantId", "For products sold by variant: one of its variant ids."],
  ["value", "For products sold by value: an amount on its grid, e.g. 25."],
  ["quantity", `How many, 1 to ${MAX_ROW_QUANTITY}. Required.`],
  ["clientReference", "Your own id for the order, different on every row. Required."],
  ["phoneNumber", "For phone top-ups only: the number to credit, e.g. +447700900123."],
];

export default async function BulkOrdersPage() {
  const { actor } = await requirePageSession("orders.create");
  const [recent, count] = await Promise.all([listBulkOrders(actor), countBulkOrders(actor)]);
  return (
    <>
      <PageHeader
        title="Bulk orders"
        description="Place many orders from one CSV file: upload it, check the preview and its total, then confirm once. The orders are placed in the background; you can leave and come back."
        actions={
          <Link
            href="/orders"
            className="rounded-md bg-white px-3.5 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
          >
            All orders
          </Link>
        }
      />
      <div className="grid gap-6 lg:grid-cols-5">
        <Card className="lg:col-span-2">
          <h2 className="mb-4 text-base font-semibold text-slate-900">Upload a file</h2>
          <UploadForm />
        </Card>
        <Card className="lg:col-span-3">
          <h2 className="text-base font-semibold text-slate-900">The file</h2>
          <p className="mt-1 text-sm text-slate-600">
            A header row naming the columns (in any order), then one order per row, at most {MAX_CSV_ROWS} rows and{" "}
            {MAX_DISTINCT_PRODUCTS} different products per file.
          </p>
          <dl className="mt-3 divide-y divide-slate-100 text-sm">
            {COLUMNS.map(([name, meaning]) => (
              <div key={name} className="grid grid-cols-3 gap-3 py-1.5">
                <dt className="font-mono text-xs leading-5 text-slate-900">{name}</dt>
                <dd className="col-span-2 text-slate-600">{meaning}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
      <h2 className="mb-3 mt-8 text-base font-semibold text-slate-900">Your recent bulk orders</h2>
      <BulkOrdersList items={recent} />
      <Pager
        name={{ label: "Bulk orders in all", testId: "bulk-orders-total" }}
        total={
          recent.length
            ? `${countText(count.total, ["bulk order", "bulk orders"], count.capped)}${count.capped || count.total > recent.length ? `; showing the ${recent.length} most recent` : ""}.`
            : null
        }
      />
    </>
  );
}
