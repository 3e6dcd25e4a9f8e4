import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { countEventsByState } from "@/lib/webhooks/count-events";
import {
  EVENT_KINDS,
  EVENT_STATE_LABELS,
  EVENT_STATES,
  REPROCESSABLE_STATES,
  type EventState,
} from "@/lib/webhooks/event-states";
import {
  countEvents,
  eventCursorSchema,
  eventFilterSchema,
  listEvents,
  type EventFilter,
  type EventRow,
} from "@/lib/webhooks/list-events";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { ReprocessButton } from "@/components/events/reprocess-button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { FILTER_INPUT, FilterActions, FilterField, FilterForm } from "@/components/ui/filter-form";
import { keysetPager, Pager } from "@/components/ui/pager";
import { filterQuery, pickParams, validCursor, type SearchParams } from "@/components/ui/search-params";
import { CountPill, StatusPill, type PillTone } from "@/components/ui/status-pill";
import { utcTime } from "@/components/ui/utc-time";

export const metadata: Metadata = { title: "Events" };

const STATE_TONES: Record<EventState, PillTone> = {
  pending: "info",
  processing: "working",
  processed: "success",
  failed: "danger",
  unknown_kind: "attention",
  refused: "refused",
};
const isReprocessable = (row: EventRow) => REPROCESSABLE_STATES.includes(row.state as EventState);

function eventColumns(showActions: boolean): Column<EventRow>[] {
  return [
    { key: "kind", header: "Kind", className: "whitespace-nowrap font-medium", cell: (row) => row.type },
    {
      key: "subject",
      header: "Subject",
      className: "text-xs",
      testId: "event-subject",
      cell: (row) =>
        row.subject?.orderId ? (
          <Link
            href={`/orders/${encodeURIComponent(row.subject.orderId)}`}
            className="font-medium text-brand-600 hover:underline"
          >
            {row.subject.text}
          </Link>
        ) : (
          (row.subject?.text ?? "—")
        ),
    },
    {
      key: "id",
      header: "Event id",
      className: "font-mono text-xs",
      cell: (row) => (
        <details>
          <summary className="cursor-pointer whitespace-nowrap" title={row.id}>
            {row.id.slice(0, 12)}…
          </summary>
          <pre
            className="mt-1 max-w-md overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-[11px]"
            data-testid="event-payload"
          >
            {JSON.stringify(row.payload, null, 2)}
          </pre>
        </details>
      ),
    },
    {
      key: "occurred",
      header: "Occurred (UTC)",
      className: "whitespace-nowrap font-mono text-xs",
      cell: (row) => utcTime(row.occurredAt, "second", true),
    },
    {
      key: "received",
      header: "Received (UTC)",
      className: "whitespace-nowrap font-mono text-xs",
      cell: (row) => utcTime(row.receivedAt, "second", true),
    },
    {
      key: "state",
      header: "State",
      className: "whitespace-nowrap",
      cell: (row) => (
        <StatusPill
          status={row.state}
          label={EVENT_STATE_LABELS[row.state as EventState] ?? row.state}
          tone={STATE_TONES[row.state as EventState]}
          title={
            row.processedAt
              ? `${row.state === "processing" ? "since" : "at"} ${utcTime(row.processedAt, "second", true)}`
              : undefined
          }
        />
      ),
    },
    { key: "attempts", header: "Attempts", align: "right", className: "tabular-nums", cell: (row) => row.attempts },
    {
      key: "error",
      header: "Last error",
      className: "max-w-sm text-xs text-slate-600",
      cell: (row) => (
        <>
          <p className="truncate" title={row.lastError ?? undefined}>
            {row.lastError ?? "—"}
          </p>
          {row.refusedBody !== null ? (
            <details data-testid="refused-body">
              <summary className="cursor-pointer font-medium text-slate-700">Body as received</summary>
              <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono">
                {row.refusedBody}
              </pre>
            </details>
          ) : null}
        </>
      ),
    },
    {
      key: "actions",
      header: <span className="sr-only">Actions</span>,
      align: "right",
      show: showActions,
      cell: (row) => (isReprocessable(row) ? <ReprocessButton eventId={row.id} /> : null),
    },
  ];
}

export default async function EventsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession("events.read");
  const raw = await searchParams;
  const parsed = eventFilterSchema.safeParse(pickParams(raw, ["state", "kind"]));
  const filter: EventFilter = parsed.success ? parsed.data : { state: undefined, kind: undefined };
  const { cursor } = validCursor(raw, "cursor", eventCursorSchema);
  const [{ rows, nextCursor }, count, counts] = await Promise.all([
    listEvents(actor, filter, { cursor, limit: 50 }),
    countEvents(actor, filter),
    countEventsByState(actor),
  ]);
  const query = filterQuery(filter);
  const pager = keysetPager("/events", query, { cursor, nextCursor, shown: rows.length }, count, {
    noun: ["event", "events"],
    older: "Older events →",
  });
  // The actions column only when some row has an action.
  const showActions = can(actor.roles, "events.manage") && rows.some(isReprocessable);

  return (
    <>
      <PageHeader
        title="Events"
        description="Webhooks received from the Issuing Service, newest first. Each is stored before it is acknowledged and processed once, in the background; failures are retried with backoff. A signed event whose data cannot be stored is refused for good and listed as Refused, with its body."
        actions={
          can(actor.roles, "notifications.outbox") ? (
            <Link
              href="/events/outbox"
              className="inline-flex min-h-11 items-center text-sm font-medium text-brand-600 hover:underline"
            >
              Notification outbox
            </Link>
          ) : undefined
        }
      />
      <p className="mb-4 flex flex-wrap gap-2 text-xs" data-testid="event-counts">
        {EVENT_STATES.map((state) => (
          <CountPill
            key={state}
            href={`/events?state=${state}`}
            label={EVENT_STATE_LABELS[state]}
            count={counts[state] ?? 0}
            tone={STATE_TONES[state]}
          />
        ))}
      </p>
      <FilterForm label="Filter events" path="/events" layout="grid gap-3 sm:grid-cols-3">
        <FilterField label="State">
          <select name="state" defaultValue={filter.state ?? ""} className={FILTER_INPUT}>
            <option value="">Any</option>
            {EVENT_STATES.map((state) => (
              <option key={state} value={state}>
                {EVENT_STATE_LABELS[state]}
              </option>
            ))}
          </select>
        </FilterField>
        <FilterField label="Kind">
          <input
            name="kind"
            list="event-kinds"
            defaultValue={filter.kind ?? ""}
            maxLength={100}
            placeholder="e.g. order.* or wallet.credited"
            className={FILTER_INPUT}
          />
          <datalist id="event-kinds">
            <option value="order.*" />
            {EVENT_KINDS.map((kind) => (
              <option key={kind} value={kind} />
            ))}
          </datalist>
        </FilterField>
        <FilterActions path="/events" />
      </FilterForm>
      {!parsed.success ? <Notice tone="warning">Some filters were not valid and were ignored.</Notice> : null}
      <DataTable
        rows={rows}
        row={(row) => ({ key: row.id, "data-event-id": row.id, "data-state": row.state })}
        name={{ label: "Events", testId: "events-table" }}
        columns={eventColumns(showActions)}
        empty={{ text: "No events match these filters.", testId: "events-empty" }}
      />
      <Pager name={{ label: "Pages of events", testId: "events-total" }} {...pager} />
    </>
  );
}
