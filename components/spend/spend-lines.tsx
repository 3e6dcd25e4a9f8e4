import { Link } from "@/components/ui/link";
import { TableScroll } from "@/components/ui/table-scroll";
import { utcTime } from "@/components/ui/utc-time";
import { elapsedText } from "@/components/home/elapsed";
import { formatMoney, parseMinor } from "@/lib/money";
import type { BulkSummaryView } from "@/lib/spend/bulk-request-summary";
import type { SpendLineView } from "@/lib/spend/spend-lines";

const money = (amount: string, currency: string) => formatMoney(parseMinor(amount, currency), currency);
const productHref = (id: string) => `/catalog/${encodeURIComponent(id)}`;

type Row = {
  key: string;
  productId: string | null;
  productName: string | null;
  option: string | null;
  rows?: number;
  quantity: number;
  unit: string | null;
  total: string;
  currency: string;
};

function ProductName({ row }: { row: Row }) {
  return row.productId ? (
    <Link href={productHref(row.productId)} className="font-medium text-brand-700 hover:underline">
      {row.productName ?? row.productId}
    </Link>
  ) : (
    <>{row.productName ?? "—"}</>
  );
}

/**
 * The lines of an order or a bulk file: product (linked to the catalog), variant or face value,
 * quantity, unit and total. A table from a small tablet up; on a phone, where five columns do
 * not fit, each line reads as "100 THB · 3 × $2.72 = $8.16 USD" under its product.
 */
function Lines({ rows, caption, bulk }: { rows: Row[]; caption: string; bulk: boolean }) {
  const th = "px-2 py-1.5 font-medium first:pl-0";
  return (
    <>
      <ul className="divide-y divide-slate-100 text-sm sm:hidden" aria-label={caption}>
        {rows.map((r) => (
          <li key={r.key} data-testid="spend-line-compact" className="py-1.5">
            <ProductName row={r} />
            <p className="tabular-nums text-slate-700">
              {r.option ? `${r.option} · ` : ""}
              {bulk ? `${r.rows} ${r.rows === 1 ? "row" : "rows"} · ` : ""}
              {r.quantity} × {r.unit === null ? "—" : money(r.unit, r.currency)} ={" "}
              <strong className="text-slate-900">{money(r.total, r.currency)}</strong>{" "}
              <span className="text-xs text-slate-500">{r.currency}</span>
            </p>
          </li>
        ))}
      </ul>
      <TableScroll label={caption} className="hidden sm:block">
        <table className="w-full text-sm" data-testid="spend-lines">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
              <th scope="col" className={th}>
                Product
              </th>
              <th scope="col" className={th}>
                Variant or face value
              </th>
              {bulk ? (
                <th scope="col" className={`${th} text-right`}>
                  Rows
                </th>
              ) : null}
              <th scope="col" className={`${th} text-right`}>
                Quantity
              </th>
              <th scope="col" className={`${th} text-right`}>
                Unit price
              </th>
              <th scope="col" className={`${th} text-right`}>
                Total
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.key} data-testid="spend-line" className="align-baseline">
                <td className="py-1.5 pr-2">
                  <ProductName row={r} />
                </td>
                <td className="px-2 py-1.5" data-testid="spend-line-option">
                  {r.option ?? "—"}
                </td>
                {bulk ? <td className="px-2 py-1.5 text-right tabular-nums">{r.rows}</td> : null}
                <td className="px-2 py-1.5 text-right tabular-nums" data-testid="spend-line-quantity">
                  {r.quantity}
                </td>
                <td className="px-2 py-1.5 text-right tabular-nums" data-testid="spend-line-unit">
                  {r.unit === null ? "—" : money(r.unit, r.currency)}
                </td>
                <td className="whitespace-nowrap py-1.5 pl-2 text-right tabular-nums" data-testid="spend-line-total">
                  <span className="font-semibold text-slate-900">{money(r.total, r.currency)}</span>{" "}
                  <span className="text-xs text-slate-500">{r.currency}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

const PRICED: Record<SpendLineView["pricedBy"], string> = {
  quote: "Priced by the buyer's quote",
  price: "Priced when the buyer asked",
  ceiling: "No price was asked: the total is the buyer's own ceiling (the unit price is the list price)",
};

/**
 * What one order buys, and how old its price is: an approval places it at the price of that
 * moment, never above this total. `name` says which request ("request 2iou-e1a"): a page lists
 * many, and each table's scrolling region is a landmark that needs a name of its own.
 */
export function OrderLines({ lines, now, waiting, name }: { lines: SpendLineView[]; now: Date; waiting: boolean; name: string }) {
  if (lines.length === 0) return null;
  const priced = lines[0]!;
  return (
    <div className="space-y-1">
      <Lines caption={`What this order buys (${name})`} bulk={false} rows={lines.map((l, i) => ({ key: String(i), ...l }))} />
      <p className="text-xs text-slate-600" data-testid="spend-priced">
        {PRICED[priced.pricedBy]} at {utcTime(priced.pricedAt, "second")} (
        {elapsedText(now.getTime() - Date.parse(priced.pricedAt))} ago).
        {waiting
          ? " Approving places it at the price of that moment, never above this total; a higher price comes back here."
          : null}
      </p>
    </div>
  );
}

/** What a bulk file buys, summed by product and option, with its rows to download. */
export function BulkLines({
  bulk,
  rowsHref,
  fileHref,
  name,
}: {
  /** Which request ("request 2iou-e1a"), for the table's landmark name (see OrderLines). */
  name: string;
  bulk: BulkSummaryView | null;
  rowsHref: string | null;
  fileHref: string;
}) {
  return (
    <div className="space-y-1" data-testid="spend-bulk">
      {bulk ? (
        <>
          <p className="text-sm text-slate-700" data-testid="spend-bulk-rows">
            {bulk.validCount} {bulk.validCount === 1 ? "row" : "rows"} to place
            {bulk.rowCount > bulk.validCount
              ? ` (${bulk.rowCount - bulk.validCount} of the file's ${bulk.rowCount} are not placed)`
              : ""}
            {bulk.fileName ? ` from ${bulk.fileName}` : ""}, by product:
          </p>
          <Lines
            caption={`What this bulk file buys, by product (${name})`}
            bulk
            rows={bulk.lines.map((l, i) => ({ key: String(i), ...l }))}
          />
        </>
      ) : null}
      <p className="flex flex-wrap gap-x-4 text-sm">
        {rowsHref ? (
          <a href={rowsHref} download className="font-medium text-brand-700 hover:underline" data-testid="spend-rows-download">
            Download every row (CSV)
          </a>
        ) : null}
        <Link href={fileHref} className="font-medium text-brand-700 hover:underline">
          Open the bulk order
        </Link>
      </p>
    </div>
  );
}
