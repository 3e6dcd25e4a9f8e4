import type { Metadata } from "next";
import Link from "next/link";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { countEventsByState } from "@/lib/webhooks/count-events";
import { EVENT_KINDS, EVENT_STATE_LABELS, EVENT_STATES, REPROCESSABLE_STATES, type EventState } from "@/lib/webhooks/event-states";
import { eventCursorSchema, eventFilterSchema, listEvents, type EventFilter } from "@/lib/webhooks/list-events";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { Button } from "@/components/ui/button";
import { ReprocessButton } from "@/components/events/reprocess-button";
import { TableScroll } from "@/components/ui/table-scroll";

export const metadata: Metadata = { title: "Events" };

type Search = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const utc = (d: Date | null) => (d ? d.toISOString().replace("T", " ").slice(0, 19) : "—");

const STATE_TONES: Record<string, string> = {
  pending: "bg-sky-50 text-sky-800",
  processing: "bg-indigo-50 text-indigo-800",
  processed: "bg-emerald-50 text-emerald-700",
  failed: "bg-red-50 text-red-700",
  unknown_kind: "bg-amber-50 text-amber-800",
  refused: "bg-rose-100 text-rose-900",
};

export default async function EventsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { actor } = await requirePageSession("events.read");
  const raw = await searchParams;
  const parsed = eventFilterSchema.safeParse({ state: first(raw.state), kind: first(raw.kind) });
  const filter: EventFilter = parsed.success ? parsed.data : { state: undefined, kind: undefined };
  const cursor = first(raw.cursor);
  const validCursor = cursor && eventCursorSchema.safeParse(cursor).success ? cursor : undefined;
  const [{ rows, nextCursor }, counts] = await Promise.all([listEvents(actor, filter, { cursor: validCursor, limit: 50 }), countEventsByState(actor)]);
  const canManage = can(actor.roles, "events.manage");
  // The actions column only when some row has an action.
  const showActions = canManage && rows.some((row) => REPROCESSABLE_STATES.includes(row.state as EventState));

  const query = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === "string"));
  const nextHref = nextCursor ? `/events?${new URLSearchParams({ ...Object.fromEntries(query), cursor: nextCursor })}` : null;

  return (
    <>
      <PageHeader
        title="Events"
        description="Webhooks received from the Issuing Service, newest first. Each is stored before it is acknowledged and processed once, in the background; failures are retried with backoff. A signed event whose data cannot be stored is refused for good and listed as Refused, with its body."
      />
      <p className="mb-4 flex flex-wrap gap-2 text-xs" data-testid="event-counts">
        {EVENT_STATES.map((state) => (
          <Link key={state} href={`/events?state=${state}`} className={`rounded-full px-2.5 py-1 font-medium ${STATE_TONES[state]}`}>
            {EVENT_STATE_LABELS[state]}: {counts[state] ?? 0}
          </Link>
        ))}
      </p>
      <form method="get" className="mb-4 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-3" aria-label="Filter events">
        <label className="text-sm">
          <span className="block font-medium text-slate-700">State</span>
          <select name="state" defaultValue={filter.state ?? ""} className="mt-1 w-full rounded-md px-2 py-1.5 ring-1 ring-slate-300">
            <option value="">Any</option>
            {EVENT_STATES.map((state) => (
              <option key={state} value={state}>{EVENT_STATE_LABELS[state]}</option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Kind</span>
          <input name="kind" list="event-kinds" defaultValue={filter.kind ?? ""} maxLength={100} placeholder="e.g. order.* or wallet.credited" className="mt-1 w-full rounded-md px-2 py-1.5 ring-1 ring-slate-300" />
          <datalist id="event-kinds">
            <option value="order.*" />
            {EVENT_KINDS.map((kind) => (
              <option key={kind} value={kind} />
            ))}
          </datalist>
        </label>
        <div className="flex items-end gap-2">
          <Button type="submit">Filter</Button>
          <Link href="/events" className="px-2 py-2 text-sm text-slate-600 hover:underline">Clear</Link>
        </div>
      </form>
      {!parsed.success ? <Notice tone="warning">Some filters were not valid and were ignored.</Notice> : null}
      {rows.length === 0 ? (
        <div className="rounded-lg bg-white p-8 text-center text-sm text-slate-600 shadow-sm ring-1 ring-slate-200" data-testid="events-empty">
          No events match these filters.
        </div>
      ) : (
        <TableScroll label="Events" className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="events-table">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-3">Kind</th>
                <th scope="col" className="px-4 py-3">Subject</th>
                <th scope="col" className="px-4 py-3">Event id</th>
                <th scope="col" className="px-4 py-3">Occurred (UTC)</th>
                <th scope="col" className="px-4 py-3">Received (UTC)</th>
                <th scope="col" className="px-4 py-3">State</th>
                <th scope="col" className="px-4 py-3 text-right">Attempts</th>
                <th scope="col" className="px-4 py-3">Last error</th>
                {showActions ? <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th> : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((row) => (
                <tr key={row.id} data-event-id={row.id} data-state={row.state}>
                  <td className="whitespace-nowrap px-4 py-2 font-medium">{row.type}</td>
                  <td className="px-4 py-2 text-xs" data-testid="event-subject">
                    {row.subject?.orderId ? (
                      <Link href={`/orders/${encodeURIComponent(row.subject.orderId)}`} className="font-medium text-brand-600 hover:underline">{row.subject.text}</Link>
                    ) : (row.subject?.text ?? "—")}
                  </td>
                  <td className="px-4 py-2 font-mono text-xs">
                    <details>
                      <summary className="cursor-pointer whitespace-nowrap" title={row.id}>{row.id.slice(0, 12)}…</summary>
                      <pre className="mt-1 max-w-md overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-[11px]" data-testid="event-payload">{JSON.stringify(row.payload, null, 2)}</pre>
                    </details>
                  </td>
                  <td className="whitespace-nowrap px-4 py-2 font-mono text-xs">{utc(row.occurredAt)}</td>
                  <td className="whitespace-nowrap px-4 py-2 font-mono text-xs">{utc(row.receivedAt)}</td>
                  <td className="whitespace-nowrap px-4 py-2">
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATE_TONES[row.state] ?? "bg-slate-100 text-slate-700"}`} title={row.processedAt ? `${row.state === "processing" ? "since" : "at"} ${utc(row.processedAt)}` : undefined}>
                      {EVENT_STATE_LABELS[row.state as EventState] ?? row.state}
                    </span>
                  </td>
                  <td className="px-4 py-2 text-right tabular-nums">{row.attempts}</td>
                  <td className="max-w-sm px-4 py-2 text-xs text-slate-600">
                    <p className="truncate" title={row.lastError ?? undefined}>{row.lastError ?? "—"}</p>
                    {row.refusedBody !== null ? (
                      <details data-testid="refused-body">
                        <summary className="cursor-pointer font-medium text-slate-700">Body as received</summary>
                        <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono">{row.refusedBody}</pre>
                      </details>
                    ) : null}
                  </td>
                  {showActions ? (
                    <td className="px-4 py-2 text-right">
                      {REPROCESSABLE_STATES.includes(row.state as EventState) ? <ReprocessButton eventId={row.id} /> : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <div className="mt-4 flex justify-between text-sm">
        {validCursor ? <Link href={`/events?${query}`} className="font-medium text-brand-600 hover:underline">Back to newest</Link> : <span />}
        {nextHref ? <Link href={nextHref} className="font-medium text-brand-600 hover:underline">Older events →</Link> : null}
      </div>
    </>
  );
}
