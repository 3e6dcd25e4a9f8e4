import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import type { LiveSession } from "@/lib/auth/staff-session";
import { requirePageSession } from "@/lib/auth/current";
import { can, type RoleName } from "@/lib/auth/permissions";
import { NAV_ITEMS } from "@/components/shell/nav-items";
import { PageHeader } from "@/components/ui/page-header";
import { ApproverHome, loadApproverHome } from "@/components/home/approver-home";
import { BuyerHome, loadBuyerHome } from "@/components/home/buyer-home";
import { loadSupportHome, SupportHome } from "@/components/home/support-home";
import { FinanceHome, loadFinanceHome } from "@/components/home/finance-home";
import { AdminHome, loadAdminHome } from "@/components/home/admin-home";
import { loadReconciliationNotice, ReconciliationNotice } from "@/components/reconciliation/reconciliation-notice";
import { RevealInOrder, type Step } from "@/components/ui/reveal-in-order";
import { Bone, Busy } from "@/components/ui/skeleton";
import { BackgroundWorkNotice } from "@/components/health/background-work-notice";

/**
 * The home page: for each role a person holds, the blocks that say what needs them now,
 * each linking to where one acts. The quick links stay at the bottom.
 */
/** The roles whose home blocks say what needs a person; a viewer only reads. */
const ACTING_ROLES: RoleName[] = ["approver", "buyer", "support", "finance", "admin"];
/** The roles whose decisions the worker carries out (sends, places, notifies): they hear when it stopped. */
const WAITING_ON_WORKER: RoleName[] = ["approver", "finance", "admin"];

export default async function HomePage() {
  const session = await requirePageSession();
  const { actor } = session;
  const holds = (role: RoleName) => actor.roles.includes(role);
  const items = NAV_ITEMS.filter((item) => can(actor.roles, item.permission));
  // Each role's data is asked for only if the person holds the role (its reads check it too).
  const section = <T,>(
    role: RoleName,
    title: string,
    load: (session: LiveSession) => Promise<T>,
    Show: (props: { data: Promise<T> }) => Promise<ReactNode>,
  ): Step[] => {
    if (!holds(role)) return [];
    const data = load(session);
    return [{ key: role, fallback: <SectionSkeleton title={title} />, ready: data, content: <Show data={data} /> }];
  };
  const differences = holds("finance") || holds("admin") ? loadReconciliationNotice(actor) : null;
  const steps: Step[] = [
    ...section("approver", "Approvals", loadApproverHome, ApproverHome),
    ...section("buyer", "Your orders", loadBuyerHome, BuyerHome),
    ...section("support", "Support", loadSupportHome, SupportHome),
    ...(differences
      ? [
          {
            key: "reconciliation",
            ready: differences,
            content: (
              <div className="mb-6 empty:hidden">
                <ReconciliationNotice days={differences} />
              </div>
            ),
          },
        ]
      : []),
    ...section("finance", "Finance", loadFinanceHome, FinanceHome),
    ...section("admin", "Admin", loadAdminHome, AdminHome),
  ];
  const quickLinks = (
    <nav aria-labelledby="quick-links">
      <h2 id="quick-links" className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">
        Go to
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li key={item.href}>
            <Link href={item.href} className="block rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 hover:ring-brand-500">
              <span className="text-base font-semibold text-slate-900">{item.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
  return (
    <>
      <PageHeader
        title={`Welcome, ${actor.name}`}
        description={
          actor.roles.length === 0
            ? "You have no role yet, so there is nothing here for you. An admin gives you one on the Staff page."
            : ACTING_ROLES.some(holds)
              ? "What needs you today."
              : "Everything here is yours to read: orders, the catalog, the wallet and their history."
        }
      />
      {/* Each section comes with the page when its data is quick, else streams in; they appear
          top to bottom, the quick links last, so that none is pushed down by one above it
          arriving later (components/ui/reveal-in-order.tsx). */}
      {WAITING_ON_WORKER.some(holds) ? <BackgroundWorkNotice admin={holds("admin")} /> : null}
      <RevealInOrder steps={steps} then={items.length ? quickLinks : null} />
    </>
  );
}

/** A role's section while its figures load: its heading and cards of a typical block's size. */
function SectionSkeleton({ title }: { title: string }) {
  return (
    <Busy label={`Loading ${title.toLowerCase()}…`} className="mb-8" testId="home-section-loading">
      <div aria-hidden="true" className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">
        {title}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Bone className="h-44" />
        <Bone className="h-44" />
      </div>
    </Busy>
  );
}
