import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { listOutbox, type OutboxRow, type OutboxState } from "@/lib/notifications/outbox";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { Link } from "@/components/ui/link";
import { DataTable, type Column } from "@/components/ui/data-table";
import { CountPill, StatusPill, type PillTone } from "@/components/ui/status-pill";
import { utcTime } from "@/components/ui/utc-time";
import type { SearchParams } from "@/components/ui/search-params";
import { RetryDeliveryButton } from "@/components/notifications/retry-delivery-button";

export const metadata: Metadata = { title: "Notification outbox" };

/** Each delivery state as the page shows it: its words and its pill's tone. */
const STATES: Record<OutboxState, { label: string; tone: PillTone }> = {
  waiting: { label: "Waiting", tone: "info" },
  retrying: { label: "Retrying", tone: "working" },
  failed: { label: "Failed", tone: "danger" },
  sent: { label: "Sent", tone: "success" },
  held: { label: "Held for digest", tone: "neutral" },
  other: { label: "Done", tone: "neutral" },
};
const FILTERS = ["waiting", "retrying", "failed", "sent"] as const;

const columns = (showActions: boolean): Column<OutboxRow>[] => [
  { key: "what", header: "Notification", rowHeader: true, className: "max-w-sm break-words text-sm", cell: (row) => row.what },
  { key: "kind", header: "Kind", className: "text-xs text-slate-600", cell: (row) => row.kind },
  { key: "to", header: "To", className: "break-all text-xs", cell: (row) => `${row.recipient} (${row.channel})` },
  {
    key: "state",
    header: "State",
    className: "whitespace-nowrap",
    testId: "outbox-state",
    cell: (row) => <StatusPill status={row.state} {...STATES[row.state]} />,
  },
  { key: "attempts", header: "Attempts", align: "right", className: "tabular-nums", cell: (row) => row.attempts },
  {
    key: "when",
    header: "When (UTC)",
    className: "whitespace-nowrap font-mono text-xs",
    cell: (row) =>
      row.sentAt
        ? `sent ${utcTime(row.sentAt, "second", true)}`
        : row.state === "failed"
          ? utcTime(row.updatedAt, "second", true)
          : `due ${utcTime(row.dueAt, "second", true)}`,
  },
  {
    key: "reason",
    header: "Reason",
    className: "max-w-xs break-words text-xs text-slate-600",
    testId: "outbox-reason",
    cell: (row) => row.reason ?? "—",
  },
  {
    key: "actions",
    header: <span className="sr-only">Actions</span>,
    align: "right",
    show: showActions,
    cell: (row) => (row.state === "failed" ? <RetryDeliveryButton deliveryId={row.id} /> : null),
  },
];

/** The notification outbox for admins: what was sent, what waits or is retried, and what was refused and why. */
export default async function OutboxPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession("notifications.outbox");
  const raw = await searchParams;
  const state = typeof raw.state === "string" && (FILTERS as readonly string[]).includes(raw.state) ? raw.state : undefined;
  const outbox = await listOutbox(actor, { state });
  return (
    <>
      <PageHeader
        title="Notification outbox"
        description="Every email and chat message the app sends goes through here: recorded with the event that caused it, sent by the worker, retried with backoff when the mail server or the chat webhook fails for a while. A refusal that will not pass is kept as Failed with the answer."
      />
      {!outbox.emailConfigured ? (
        <Notice tone="warning">
          Email is not configured (SMTP_URL): email waits here until it is. In-app notifications and chat are not affected.
        </Notice>
      ) : null}
      {outbox.mailCatcher ? (
        <p className="mb-4 text-sm">
          Local mode: email goes to the local mail catcher, not out.{" "}
          <Link href="/events/caught-mail" className="font-medium text-brand-600 hover:underline">
            See the caught mail
          </Link>
        </p>
      ) : null}
      <p className="mb-4 flex flex-wrap gap-2 text-xs" data-testid="outbox-counts">
        <Link
          href="/events/outbox"
          className="inline-flex min-h-11 items-center rounded-full bg-slate-100 px-3 font-medium text-slate-700"
        >
          All
        </Link>
        {FILTERS.map((filter) => (
          <CountPill key={filter} href={`/events/outbox?state=${filter}`} count={outbox.counts[filter]} {...STATES[filter]} />
        ))}
        {outbox.counts.held ? (
          <span className="inline-flex min-h-11 items-center px-2 text-slate-600">{outbox.counts.held} held for digests</span>
        ) : null}
      </p>
      <DataTable
        name={{ label: "Notification deliveries", testId: "outbox" }}
        columns={columns(outbox.rows.some((row) => row.state === "failed"))}
        rows={outbox.rows}
        row={(row) => ({ key: row.id, "data-state": row.state })}
        empty={{ text: state ? "None in this state." : "Nothing sent yet." }}
      />
    </>
  );
}
