import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { getSettings } from "@/lib/settings/get-settings";
import { listSpendLimits, type SpendLimitView } from "@/lib/spend/set-spend-limit";
import { listStaff } from "@/lib/staff/list-staff";
import { Card, PageHeader } from "@/components/ui/page-header";
import { DataTable, type Column } from "@/components/ui/data-table";
import { SpendLimitForm } from "@/components/spend/spend-limit-form";

export const metadata: Metadata = { title: "Spend limits" };

/** Admins set buyers' limits per currency (per order, day, month in UTC) and the workspace default. */
export default async function SpendLimitsPage() {
  const { actor } = await requirePageSession("spend.limits");
  const [limits, staff, settings] = await Promise.all([listSpendLimits(actor), listStaff(actor), getSettings()]);
  const buyers = staff
    .filter((s) => s.active && s.roles.includes("buyer"))
    .map((s) => ({ id: s.id, name: `${s.name} (${s.email})` }));
  const names = new Map(staff.map((s) => [s.id, s.name]));
  const currencies = Object.keys(settings.lowBalance);
  return (
    <>
      <PageHeader
        title="Spend limits"
        description={`An order past a buyer's limit, or above the approval threshold (${settings.spendApprovalAmount || "none set"}, in Settings), waits for an approver. Spend counts orders placed and orders awaiting approval, per UTC day and month.`}
      />
      <Card className="mb-6">
        <SpendLimitForm people={buyers} currencies={currencies} />
      </Card>
      <DataTable
        name={{ label: "Spend limits", testId: "spend-limits" }}
        columns={limitColumns(names)}
        rows={limits}
        row={(l) => ({ key: `${l.scope}:${l.currency}` })}
        empty={{ text: "No limits are set: buyers are held only by the approval threshold." }}
      />
    </>
  );
}

function limitColumns(names: Map<string, string>): Column<SpendLimitView>[] {
  const amount = (key: "perOrder" | "perDay" | "perMonth", header: string): Column<SpendLimitView> => ({
    key,
    header,
    align: "right",
    className: "tabular-nums",
    cell: (l) => l[key] ?? "—",
  });
  return [
    {
      key: "scope",
      header: "Applies to",
      rowHeader: true,
      cell: (l) => (l.scope === "workspace" ? "Workspace default" : (names.get(l.scope) ?? l.scope)),
    },
    { key: "currency", header: "Currency", cell: (l) => l.currency },
    amount("perOrder", "Per order"),
    amount("perDay", "Per day"),
    amount("perMonth", "Per month"),
  ];
}
