import { GROUP_NAMES } from "@/lib/reports/group-labels";
import { REPORT_GROUPS, type ReportFilter, type ReportPeriod } from "@/lib/reports/report-period";
import { Button } from "@/components/ui/button";
import { FILTER_INPUT, FilterField, FilterForm } from "@/components/ui/filter-form";

const PERIODS = [
  ["this-month", "This month"],
  ["last-month", "Last month"],
  ["custom", "From … to …"],
] as const;
const GRAINS = [
  ["day", "Day"],
  ["week", "Week"],
  ["month", "Month"],
] as const;

/** The report's choices as a GET form: the URL holds them, so a report can be shared, reloaded and downloaded. */
export function ReportFilters({ filter, period }: { filter: ReportFilter; period: ReportPeriod }) {
  return (
    <FilterForm label="Choose the report" path="/reports" layout="grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
      <FilterField label="Period">
        <Choice name="period" value={filter.period} options={PERIODS} />
      </FilterField>
      <FilterField label="From (UTC)">
        <input type="date" name="from" defaultValue={period.from} className={FILTER_INPUT} />
      </FilterField>
      <FilterField label="To (UTC, inclusive)">
        <input type="date" name="to" defaultValue={period.to} className={FILTER_INPUT} />
      </FilterField>
      <FilterField label="One bar per">
        <Choice name="grain" value={filter.grain} options={GRAINS} />
      </FilterField>
      <FilterField label="Broken down by">
        <Choice name="by" value={filter.by} options={REPORT_GROUPS.map((g) => [g, GROUP_NAMES[g]] as const)} />
      </FilterField>
      <div className="flex items-end">
        <Button type="submit">Show</Button>
      </div>
      <p className="text-xs text-slate-500 sm:col-span-3 lg:col-span-6">
        The dates apply when the period is “From … to …” (at most 366 days).
      </p>
    </FilterForm>
  );
}

function Choice({ name, value, options }: { name: string; value: string; options: readonly (readonly [string, string])[] }) {
  return (
    <select name={name} defaultValue={value} className={FILTER_INPUT}>
      {options.map(([option, label]) => (
        <option key={option} value={option}>
          {label}
        </option>
      ))}
    </select>
  );
}
