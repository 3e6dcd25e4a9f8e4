import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { requirePageSession } from "@/lib/auth/current";
import { isAppError } from "@/lib/errors";
import { getReconciliationDay } from "@/lib/reconciliation/list-reconciliations";
import { PageHeader } from "@/components/ui/page-header";
import { DayStatement } from "@/components/reconciliation/day-statement";

export const metadata: Metadata = { title: "Wallet reconciliation of a day" };

/** One kept day: each currency's statement, the day-end read it rests on, and what explains a difference. */
export default async function ReconciliationDayPage({ params }: { params: Promise<{ day: string }> }) {
  const { actor } = await requirePageSession("wallet.read");
  const { day } = await params;
  const currencies = await getReconciliationDay(actor, day).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });

  return (
    <>
      <PageHeader
        title={`Wallet reconciliation, ${day}`}
        description="The UTC day's movements from this app's records against the Issuing Service's balance at the day's end."
        actions={
          <>
            <a
              href={`/api/wallet/reconciliation/export?day=${day}`}
              className="rounded-md bg-white px-3.5 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
              data-testid="reconciliation-day-export"
              download
            >
              Export CSV
            </a>
            <Link href="/wallet/reconciliation" className="px-2 py-2 text-sm font-medium text-brand-600 hover:underline">
              ← All days
            </Link>
          </>
        }
      />
      <div className="space-y-6">
        {currencies.map((r) => (
          <DayStatement key={r.currency} row={r} />
        ))}
      </div>
    </>
  );
}
