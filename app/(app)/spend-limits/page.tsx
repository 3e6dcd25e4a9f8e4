import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { getSettings } from "@/lib/settings/get-settings";
import { listSpendLimits } from "@/lib/spend/set-spend-limit";
import { listStaff } from "@/lib/staff/list-staff";
import { Card, PageHeader } from "@/components/ui/page-header";
import { TableScroll } from "@/components/ui/table-scroll";
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
      {limits.length === 0 ? (
        <p className="text-sm text-slate-600">No limits are set: buyers are held only by the approval threshold.</p>
      ) : (
        <TableScroll label="Spend limits">
          <table className="min-w-full text-sm">
            <thead>
              <tr className="text-left text-slate-600">
                <th className="px-3 py-2">Applies to</th>
                <th className="px-3 py-2">Currency</th>
                <th className="px-3 py-2 text-right">Per order</th>
                <th className="px-3 py-2 text-right">Per day</th>
                <th className="px-3 py-2 text-right">Per month</th>
              </tr>
            </thead>
            <tbody>
              {limits.map((l) => (
                <tr key={`${l.scope}:${l.currency}`} className="border-t border-slate-100">
                  <td className="px-3 py-2">{l.scope === "workspace" ? "Workspace default" : (names.get(l.scope) ?? l.scope)}</td>
                  <td className="px-3 py-2">{l.currency}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{l.perOrder ?? "—"}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{l.perDay ?? "—"}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{l.perMonth ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
