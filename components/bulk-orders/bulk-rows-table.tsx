"use client";

import { useState } from "react";
import { Link } from "@/components/ui/link";
import { formatMoney } from "@/lib/money";
import type { BulkOrderView, BulkRowView } from "@/lib/bulk-orders/bulk-view";
import { OrderStatusBadge } from "@/components/orders/order-status-badge";
import { RowStateBadge } from "./bulk-state-badge";
import { needsAttention, orderedErrors, rowReason } from "@/lib/bulk-orders/bulk-outcome";
import { DataTable, type Column } from "@/components/ui/data-table";

const FIELD_LABELS: Record<string, string> = {
  _row: "Row",
  productId: "Product",
  variantId: "Variant",
  value: "Value",
  quantity: "Quantity",
  clientReference: "Client reference",
  phoneNumber: "Phone",
};

/** Every row of the file: what it asks for, its price, and its checks or its result. */
export function BulkRowsTable({ view }: { view: BulkOrderView }) {
  const [onlyProblems, setOnlyProblems] = useState(false);
  const problems = view.rows.filter(needsAttention).length;
  const rows = onlyProblems ? view.rows.filter(needsAttention) : view.rows;
  const showPhone = view.rows.some((r) => r.cells.phoneNumber);

  return (
    <section aria-labelledby="bulk-rows-heading">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="bulk-rows-heading" className="text-base font-semibold text-slate-900">
          Rows
        </h2>
        <div
          role="group"
          aria-label="Which rows to show"
          className="inline-flex rounded-md text-sm shadow-sm ring-1 ring-slate-300"
        >
          <FilterButton pressed={!onlyProblems} onClick={() => setOnlyProblems(false)}>
            All ({view.rows.length})
          </FilterButton>
          <FilterButton pressed={onlyProblems} onClick={() => setOnlyProblems(true)}>
            Needing attention ({problems})
          </FilterButton>
        </div>
      </div>
      <DataTable
        rows={rows}
        row={(row) => ({
          key: row.rowNumber,
          "data-row": row.rowNumber,
          "data-state": row.state,
          className: row.errors ? "bg-red-50/40" : undefined,
        })}
        name={{ label: "Rows of the file", testId: "bulk-rows" }}
        variant="narrow"
        columns={rowColumns(view, showPhone)}
        empty={{ text: "No row needs attention.", as: "row" }}
      />
    </section>
  );
}

function rowColumns(view: BulkOrderView, showPhone: boolean): Column<BulkRowView>[] {
  return [
    { key: "row", header: "Row", align: "right", className: "tabular-nums text-slate-500", cell: (row) => row.rowNumber },
    {
      key: "product",
      header: "Product",
      className: "max-w-xs",
      cell: (row) => (
        <>
          <span className="block truncate font-medium text-slate-900" title={row.productName || row.cells.productId}>
            {row.productName || row.cells.productId || "—"}
          </span>
          <span className="block truncate text-xs text-slate-500">
            {row.optionLabel ?? (row.cells.variantId || row.cells.value || "")}
          </span>
        </>
      ),
    },
    { key: "qty", header: "Qty", align: "right", className: "tabular-nums", cell: (row) => row.cells.quantity || "—" },
    {
      key: "reference",
      header: "Client reference",
      className: "max-w-[12rem] truncate font-mono text-xs",
      cell: (row) => <span title={row.cells.clientReference}>{row.cells.clientReference || "—"}</span>,
    },
    {
      key: "phone",
      header: "Phone",
      show: showPhone,
      className: "whitespace-nowrap font-mono text-xs",
      cell: (row) => row.cells.phoneNumber || "—",
    },
    {
      key: "price",
      header: "Price",
      align: "right",
      className: "whitespace-nowrap tabular-nums",
      cell: (row) => (row.quotedTotalMinor && row.currency ? formatMoney(row.quotedTotalMinor, row.currency) : "—"),
    },
    {
      key: "result",
      header: view.state === "draft" ? "Check" : "Result",
      cell: (row) => (view.state === "draft" ? <CheckCell row={row} /> : <ResultCell row={row} />),
    },
  ];
}

function FilterButton({ pressed, onClick, children }: { pressed: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={`px-3 py-1.5 first:rounded-l-md last:rounded-r-md ${pressed ? "bg-slate-800 text-white" : "bg-white text-slate-700 hover:bg-slate-50"}`}
    >
      {children}
    </button>
  );
}

function Errors({ errors }: { errors: Record<string, string[]> }) {
  return (
    <ul className="space-y-0.5 text-xs text-red-700" data-testid="row-errors">
      {orderedErrors(errors).map(([field, messages]) => (
        <li key={field}>
          <span className="font-semibold">{FIELD_LABELS[field] ?? field}:</span> {messages.join(" ")}
        </li>
      ))}
    </ul>
  );
}

function CheckCell({ row }: { row: BulkRowView }) {
  if (row.errors) return <Errors errors={row.errors} />;
  return <span className="text-xs font-medium text-emerald-700">Ready</span>;
}

function ResultCell({ row }: { row: BulkRowView }) {
  if (row.state === "placed" && row.orderId) {
    const reason = rowReason(row);
    return (
      <div className="space-y-1">
        <span className="flex flex-wrap items-center gap-2">
          <Link
            href={`/orders/${encodeURIComponent(row.orderId)}`}
            className="font-mono text-xs font-medium text-brand-600 hover:underline"
          >
            {row.orderId}
          </Link>
          {row.orderStatus ? <OrderStatusBadge status={row.orderStatus} /> : <RowStateBadge state="placed" />}
        </span>
        {reason ? (
          <p className="text-xs text-red-700" data-testid="row-reason">
            {reason}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <div className="space-y-1">
      <RowStateBadge state={row.state} />
      {row.errors ? <Errors errors={row.errors} /> : null}
      {row.errorMessage && !row.errors ? (
        <p className={`text-xs ${row.state === "failed" ? "text-red-700" : "text-slate-600"}`} data-testid="row-reason">
          {row.errorMessage}
        </p>
      ) : null}
      {row.correlationId && row.state !== "placed" ? (
        <p className="font-mono text-[11px] text-slate-500">Reference for support: {row.correlationId}</p>
      ) : null}
    </div>
  );
}
