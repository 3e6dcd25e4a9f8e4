import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { requirePageSession } from "@/lib/auth/current";
import {
  countReconciliations,
  listReconciliations,
  reconciliationCursorSchema,
  reconciliationFilterSchema,
  type ReconciliationFilter,
} from "@/lib/reconciliation/list-reconciliations";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { DataTable } from "@/components/ui/data-table";
import { FILTER_INPUT, FilterActions, FilterField, FilterForm } from "@/components/ui/filter-form";
import { keysetPager, Pager } from "@/components/ui/pager";
import { filterQuery, pickParams, validCursor, type SearchParams } from "@/components/ui/search-params";
import { reconciliationColumns } from "@/components/reconciliation/reconciliation-columns";

export const metadata: Metadata = { title: "Wallet reconciliation" };

const PATH = "/wallet/reconciliation";
const COLUMNS = reconciliationColumns({ linkDay: true });
const STATUS_OPTIONS = [
  ["difference", "Difference"],
  ["reconciled", "Reconciled"],
  ["baseline", "Baseline"],
] as const;

/** Every kept day and currency, newest first: reconciled, or the difference to the cent. */
export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession("wallet.read");
  const raw = await searchParams;
  const parsed = reconciliationFilterSchema.safeParse(pickParams(raw, ["status"]));
  const filter: ReconciliationFilter = parsed.success ? parsed.data : { status: undefined, day: undefined };
  const { cursor } = validCursor(raw, "cursor", reconciliationCursorSchema);
  const [{ rows, nextCursor }, total] = await Promise.all([
    listReconciliations(actor, filter, { cursor, limit: 50 }),
    countReconciliations(actor, filter),
  ]);
  const query = filterQuery(filter);
  const pager = keysetPager(
    PATH,
    query,
    { cursor, nextCursor, shown: rows.length },
    { total },
    {
      noun: ["day and currency", "days and currencies"],
      older: "Older days →",
    },
  );

  return (
    <>
      <PageHeader
        title="Wallet reconciliation"
        description={
          <>
            Each UTC day the worker sets the wallet&apos;s total (available, reserved and held for withdrawals) at 00:05 UTC
            against this app&apos;s records: opening − orders captured + refunds + credits − withdrawals paid. A difference lists
            the movements that explain it where the Issuing Service shows them.{" "}
            <Link href="/wallet" className="font-medium text-brand-600 hover:underline">
              Back to the wallet
            </Link>
          </>
        }
        actions={
          <a
            href={`/api/wallet/reconciliation/export${query.size ? `?${query}` : ""}`}
            className="rounded-md bg-white px-3.5 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
            data-testid="reconciliation-export"
            download
          >
            Export CSV
          </a>
        }
      />
      <FilterForm label="Filter the reconciliation" path={PATH} layout="grid gap-3 sm:grid-cols-4">
        <FilterField label="Status">
          <select name="status" defaultValue={filter.status ?? ""} className={FILTER_INPUT}>
            <option value="">Any</option>
            {STATUS_OPTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </FilterField>
        <FilterActions path={PATH} />
      </FilterForm>
      {!parsed.success ? (
        <Notice className="mb-4" tone="warning">
          That status filter was not valid and was ignored.
        </Notice>
      ) : null}
      <DataTable
        rows={rows}
        row={(r) => ({ key: `${r.day}.${r.currency}`, "data-day": r.day, "data-currency": r.currency })}
        name={{ label: "Reconciled days", testId: "reconciliation-table" }}
        columns={COLUMNS}
        variant="narrow"
        empty={{
          text: "No day has been reconciled yet: the worker reconciles each day at 00:05 UTC.",
          testId: "reconciliation-empty",
        }}
      />
      <Pager name={{ label: "Pages of reconciled days", testId: "reconciliation-total" }} {...pager} />
    </>
  );
}
