import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { JOURNAL_FORMATS, JOURNAL_FORMAT_NAMES } from "@/lib/books/journal-formats";
import { listPeriods, type PeriodView } from "@/lib/books/list-periods";
import { periodLabel } from "@/lib/books/periods";
import { Card, PageHeader } from "@/components/ui/page-header";
import { StatusPill, type PillTone } from "@/components/ui/status-pill";
import { Link } from "@/components/ui/link";
import { PeriodActions } from "@/components/books/period-actions";
import { DeliveryForm } from "@/components/books/delivery-form";
import { readDelivery } from "@/lib/books/delivery-settings";
import { journalReaders } from "@/lib/books/journal-readers";

export const metadata: Metadata = { title: "Accounting export" };

const STATES: Record<PeriodView["state"], { label: string; tone: PillTone }> = {
  open: { label: "Open", tone: "neutral" },
  locked: { label: "Locked", tone: "success" },
  reopen_requested: { label: "Locked, reopening asked", tone: "attention" },
};

const when = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

function stateWords(period: PeriodView): string {
  if (period.state !== "open")
    return `Locked by ${period.lockedBy ?? "someone no longer on staff"} on ${when(period.lockedAt!)}: this journal no longer changes.`;
  return period.ended ? "Ended, not locked: the journal may still change." : "In progress: the journal so far.";
}

export default async function JournalPage() {
  const { actor } = await requirePageSession("books.read");
  const canClose = can(actor.roles, "books.close");
  const [periods, delivery, people] = await Promise.all([
    listPeriods(actor),
    canClose ? readDelivery() : null,
    canClose ? journalReaders() : [],
  ]);
  return (
    <>
      <PageHeader
        title="Accounting export"
        description="The wallet's movements as a double-entry journal, one per day and currency, for your accounting software."
      />
      <p className="mb-4 text-sm text-slate-600">
        Deposits, orders, failed and refunded orders, withdrawals with their fees, and differences the daily reconciliation left
        open (to suspense).{" "}
        {can(actor.roles, "settings.read") ? (
          <Link href="/settings#accounts" className="font-medium text-brand-600 hover:underline">
            Accounts are mapped in Settings.
          </Link>
        ) : (
          "An admin maps the accounts in Settings."
        )}
      </p>
      <section className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
        <h2 className="sr-only">Months</h2>
        <ul className="divide-y divide-slate-200">
          {periods.map((period) => {
            const label = periodLabel(period.period);
            return (
              <li key={period.period} className="space-y-3 px-5 py-4">
                <div
                  className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2"
                  data-testid={`period-${period.period}`}
                >
                  <div className="min-w-0">
                    <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
                      {label}
                      <StatusPill
                        status={period.state}
                        label={STATES[period.state].label}
                        tone={STATES[period.state].tone}
                        dataAttribute="data-state"
                        testId="period-state"
                      />
                    </h3>
                    <p className="mt-0.5 text-sm text-slate-600">{stateWords(period)}</p>
                    {period.state === "reopen_requested" ? (
                      <p className="mt-1 text-sm text-amber-900">
                        {period.reopenRequestedBy ?? "Someone"} asked to reopen it: “{period.reopenReason}”. Someone else in
                        finance must approve.
                      </p>
                    ) : null}
                  </div>
                  <p className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
                    <span className="text-slate-500">Download:</span>
                    {JOURNAL_FORMAT_NAMES.map((format) => (
                      <a
                        key={format}
                        href={`/api/books/journal?period=${period.period}&format=${format}`}
                        className="font-medium text-brand-600 hover:underline"
                        aria-label={`${JOURNAL_FORMATS[format].short}, ${label}`}
                        download
                      >
                        {JOURNAL_FORMATS[format].short}
                      </a>
                    ))}
                  </p>
                </div>
                <PeriodActions period={period} label={label} />
              </li>
            );
          })}
        </ul>
      </section>
      {delivery ? (
        <Card className="mt-6">
          <h2 id="delivery" className="mb-3 text-base font-semibold">
            Monthly journal by email
          </h2>
          <DeliveryForm
            initial={delivery}
            people={people}
            formats={JOURNAL_FORMAT_NAMES.map((f) => ({ value: f, label: JOURNAL_FORMATS[f].label }))}
          />
        </Card>
      ) : null}
    </>
  );
}
