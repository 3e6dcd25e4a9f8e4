import type { Metadata } from "next";
import Link from "next/link";
import { requirePageSession } from "@/lib/auth/current";
import { auditCursorSchema, auditFilterSchema, listAudit, type AuditFilter } from "@/lib/audit/list-audit";
import { AUDIT_ACTIONS, auditActionLabel } from "@/lib/audit/actions";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { Button } from "@/components/ui/button";
import { recentQuotaAlerts } from "@/lib/reveal/quota-alerts";
import { TableScroll } from "@/components/ui/table-scroll";

export const metadata: Metadata = { title: "Audit log" };

type Search = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { actor } = await requirePageSession("audit.read");
  const raw = await searchParams;
  const parsed = auditFilterSchema.safeParse({ actor: first(raw.actor), action: first(raw.action), from: first(raw.from), to: first(raw.to), signIns: first(raw.signIns) });
  const filter: AuditFilter = parsed.success ? parsed.data : { actor: undefined, action: undefined };
  const cursor = first(raw.cursor);
  const [{ rows, nextCursor }, alerts] = await Promise.all([
    listAudit(actor, filter, { cursor: cursor && auditCursorSchema.safeParse(cursor).success ? cursor : undefined, limit: 50 }),
    recentQuotaAlerts(actor),
  ]);

  const query = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === "string"));
  const nextHref = nextCursor ? `/audit?${new URLSearchParams({ ...Object.fromEntries(query), cursor: nextCursor })}` : null;

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change, sign-in and sensitive action, newest first. Rows can never be edited or removed."
        actions={
          <a href={`/api/audit/export?${query}`} className="rounded-md bg-white px-3.5 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50" download>
            Export CSV
          </a>
        }
      />
      <form method="get" className="mb-4 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-5" aria-label="Filter the audit log">
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Actor email</span>
          <input name="actor" defaultValue={filter.actor ?? ""} maxLength={200} className="mt-1 w-full rounded-md px-2 py-1.5 ring-1 ring-slate-300" />
        </label>
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Action</span>
          <select name="action" defaultValue={filter.action ?? ""} className="mt-1 w-full rounded-md px-2 py-1.5 ring-1 ring-slate-300">
            <option value="">Any</option>
            {Object.entries(AUDIT_ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>{label}</option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="block font-medium text-slate-700">From</span>
          <input type="date" name="from" defaultValue={filter.from ?? ""} className="mt-1 w-full rounded-md px-2 py-1.5 ring-1 ring-slate-300" />
        </label>
        <label className="text-sm">
          <span className="block font-medium text-slate-700">To</span>
          <input type="date" name="to" defaultValue={filter.to ?? ""} className="mt-1 w-full rounded-md px-2 py-1.5 ring-1 ring-slate-300" />
        </label>
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex items-center gap-1.5 py-2 text-sm text-slate-700">
            <input type="checkbox" name="signIns" value="hide" defaultChecked={filter.signIns === "hide"} />
            Hide sign-ins
          </label>
          <Button type="submit">Filter</Button>
          <Link href="/audit" className="px-2 py-2 text-sm text-slate-600 hover:underline">Clear</Link>
        </div>
      </form>
      {alerts.count > 0 ? (
        <div className="mb-4">
          <Notice tone="warning" title="Reveal quota exceeded" testId="reveal-quota-alert">
            In the last 24 hours {alerts.people.join(", ")} tried to reveal codes beyond the hourly quota ({alerts.count} time{alerts.count === 1 ? "" : "s"}).{" "}
            <Link href="/audit?action=order.reveal_quota_exceeded" className="font-medium underline">See them</Link>
          </Notice>
        </div>
      ) : null}
      {!parsed.success ? <Notice tone="warning">Some filters were not valid and were ignored.</Notice> : null}
      {rows.length === 0 ? (
        <div className="rounded-lg bg-white p-8 text-center text-sm text-slate-600 shadow-sm ring-1 ring-slate-200" data-testid="audit-empty">
          No audit entries match these filters.
        </div>
      ) : (
        <TableScroll label="Audit entries" className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="audit-table">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-3">When (UTC)</th>
                <th scope="col" className="px-4 py-3">Who</th>
                <th scope="col" className="px-4 py-3">What</th>
                <th scope="col" className="px-4 py-3">Target</th>
                <th scope="col" className="px-4 py-3">From</th>
                <th scope="col" className="px-4 py-3">Details</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((row) => (
                <tr key={row.id} data-action={row.action}>
                  <td className="whitespace-nowrap px-4 py-2 font-mono text-xs">{row.at.toISOString().replace("T", " ").slice(0, 19)}</td>
                  <td className="px-4 py-2">{row.actorEmail ?? "—"}</td>
                  <td className="whitespace-nowrap px-4 py-2 font-medium">{auditActionLabel(row.action)}</td>
                  <td className="px-4 py-2 text-xs text-slate-600" data-testid="audit-target">
                    <AuditTarget type={row.targetType} id={row.targetId} />
                  </td>
                  <td className="px-4 py-2 text-xs text-slate-600" title={row.userAgent ?? undefined}>{row.ip ?? "—"}</td>
                  <td className="max-w-sm px-4 py-2 text-xs text-slate-600">
                    {row.correlationId ? <span className="block font-mono">ref {row.correlationId}</span> : null}
                    {formatDetails(row.details)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <div className="mt-4 flex justify-between text-sm">
        {cursor ? <Link href={`/audit?${query}`} className="font-medium text-brand-600 hover:underline">Back to newest</Link> : <span />}
        {nextHref ? <Link href={nextHref} className="font-medium text-brand-600 hover:underline">Older entries →</Link> : null}
      </div>
    </>
  );
}

/** Pages that show a target, by its type: the audit row links there. */
const TARGET_PAGES: Record<string, (id: string) => string> = {
  order: (id) => `/orders/${encodeURIComponent(id)}`,
  bulk_order: (id) => `/orders/bulk/${encodeURIComponent(id)}`,
  withdrawal: () => "/withdrawals",
  webhook_event: () => "/events",
  staff: () => "/staff",
};

function AuditTarget({ type, id }: { type: string | null; id: string | null }) {
  if (!type) return <>—</>;
  const href = id ? TARGET_PAGES[type]?.(id) : undefined;
  const label = (
    <>
      <span className="block">{type.replace(/[_-]/g, " ")}</span>
      {id ? <span className="block break-all font-mono">{id}</span> : null}
    </>
  );
  return href ? <Link href={href} className="text-brand-600 hover:underline">{label}</Link> : label;
}

/** "email: a@b.c · roles: buyer, support" rather than raw JSON. */
function formatDetails(details: unknown): string {
  if (!details || typeof details !== "object") return "";
  return Object.entries(details as Record<string, unknown>)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)}`)
    .join(" · ");
}
