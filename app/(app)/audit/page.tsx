import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { requirePageSession } from "@/lib/auth/current";
import {
  auditCursorSchema,
  auditFilterSchema,
  countAudit,
  listAudit,
  type AuditFilter,
  type AuditRow,
} from "@/lib/audit/list-audit";
import { auditActionGroups, auditActionLabel } from "@/lib/audit/actions";
import { auditDetails } from "@/lib/audit/read-details";
import { auditStaffNames } from "@/lib/audit/staff-names";
import { auditTargetView } from "@/lib/audit/targets";
import type { Actor } from "@/lib/auth/actor";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { recentQuotaAlerts } from "@/lib/reveal/quota-alerts";
import { AuditTable, type AuditTableRow } from "@/components/audit/audit-table";
import { DateRangeFields, FILTER_INPUT, FilterActions, FilterField, FilterForm } from "@/components/ui/filter-form";
import { keysetPager, Pager } from "@/components/ui/pager";
import { filterQuery, pickParams, validCursor, type SearchParams } from "@/components/ui/search-params";
import { utcTime } from "@/components/ui/utc-time";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession("audit.read");
  const raw = await searchParams;
  const parsed = auditFilterSchema.safeParse(pickParams(raw, ["actor", "action", "from", "to", "signIns"]));
  const filter: AuditFilter = parsed.success ? parsed.data : { actor: undefined, action: undefined };
  const { cursor } = validCursor(raw, "cursor", auditCursorSchema);
  const [{ rows, nextCursor }, count, alerts] = await Promise.all([
    listAudit(actor, filter, { cursor, limit: 50 }),
    countAudit(actor, filter),
    recentQuotaAlerts(actor),
  ]);
  const names = await auditStaffNames(actor, rows);
  const query = filterQuery(filter);
  const pager = keysetPager("/audit", query, { cursor, nextCursor, shown: rows.length }, count, {
    noun: ["entry", "entries"],
    older: "Older entries →",
  });

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change, sign-in and sensitive action, newest first. Rows can never be edited or removed."
        actions={
          <a
            href={`/api/audit/export?${query}`}
            className="rounded-md bg-white px-3.5 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
            download
          >
            Export CSV
          </a>
        }
      />
      <FilterForm label="Filter the audit log" path="/audit" layout="grid gap-3 sm:grid-cols-5">
        <FilterField label="Actor email">
          <input name="actor" defaultValue={filter.actor ?? ""} maxLength={200} className={FILTER_INPUT} />
        </FilterField>
        <FilterField label="Action">
          <select name="action" defaultValue={filter.action ?? ""} className={FILTER_INPUT}>
            <option value="">Any</option>
            {auditActionGroups().map((group) => (
              <optgroup key={group.prefix} label={group.label}>
                <option value={`${group.prefix}.*`}>{`${group.label}: all`}</option>
                {group.actions.map(({ value, label }) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </FilterField>
        <DateRangeFields from={filter.from} to={filter.to} />
        <FilterActions
          path="/audit"
          before={
            <label className="flex items-center gap-1.5 py-2 text-sm text-slate-700">
              <input type="checkbox" name="signIns" value="hide" defaultChecked={filter.signIns === "hide"} />
              Hide sign-ins
            </label>
          }
        />
      </FilterForm>
      {alerts.count > 0 ? (
        <Notice className="mb-4" tone="warning" title="Reveal quota exceeded" testId="reveal-quota-alert">
          In the last 24 hours {alerts.people.join(", ")} tried to reveal codes beyond the hourly quota ({alerts.count} time
          {alerts.count === 1 ? "" : "s"}).{" "}
          <Link href="/audit?action=order.reveal_quota_exceeded" className="font-medium underline">
            See them
          </Link>
        </Notice>
      ) : null}
      {!parsed.success ? <Notice tone="warning">Some filters were not valid and were ignored.</Notice> : null}
      <AuditTable rows={rows.map((row) => tableRow(row, actor, names))} />
      <Pager name={{ label: "Pages of the audit log", testId: "audit-total" }} {...pager} />
    </>
  );
}

/** An entry in words, as the table shows it (labels, target kinds and details from lib/audit's tables, people by name). */
function tableRow(row: AuditRow, reader: Actor, names: ReadonlyMap<string, string>): AuditTableRow {
  return {
    id: row.id,
    action: row.action,
    at: utcTime(row.at, "second", true),
    who: row.actorEmail ?? "—",
    what: auditActionLabel(row.action),
    target: auditTargetView(row.targetType, row.targetId, reader.roles, names),
    ip: row.ip ?? "—",
    userAgent: row.userAgent ?? undefined,
    correlationId: row.correlationId,
    details: auditDetails(row.action, row.details, names),
  };
}
