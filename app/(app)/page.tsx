import { Link } from "@/components/ui/link";
import { Suspense, type ReactNode } from "react";
import { requirePageSession } from "@/lib/auth/current";
import { can, type RoleName } from "@/lib/auth/permissions";
import { NAV_ITEMS } from "@/components/shell/nav-items";
import { PageHeader } from "@/components/ui/page-header";
import { ApproverHome } from "@/components/home/approver-home";
import { BuyerHome } from "@/components/home/buyer-home";
import { SupportHome } from "@/components/home/support-home";
import { FinanceHome } from "@/components/home/finance-home";
import { AdminHome } from "@/components/home/admin-home";
import { ReconciliationNotice } from "@/components/reconciliation/reconciliation-notice";

/**
 * The home page: for each role a person holds, the blocks that say what needs them now,
 * each linking to where one acts. The quick links stay at the bottom.
 */
/** The roles whose home blocks say what needs a person; a viewer only reads. */
const ACTING_ROLES: RoleName[] = ["approver", "buyer", "support", "finance", "admin"];

export default async function HomePage() {
  const session = await requirePageSession();
  const { actor } = session;
  const holds = (role: RoleName) => actor.roles.includes(role);
  const items = NAV_ITEMS.filter((item) => can(actor.roles, item.permission));
  return (
    <>
      <PageHeader
        title={`Welcome, ${actor.name}`}
        description={
          ACTING_ROLES.some(holds)
            ? "What needs you today."
            : "Everything here is yours to read: orders, the catalog, the wallet and their history."
        }
      />
      {holds("approver") ? (
        <Section title="Approvals">
          <ApproverHome session={session} />
        </Section>
      ) : null}
      {holds("buyer") ? (
        <Section title="Your orders">
          <BuyerHome session={session} />
        </Section>
      ) : null}
      {holds("support") ? (
        <Section title="Support">
          <SupportHome session={session} />
        </Section>
      ) : null}
      {holds("finance") || holds("admin") ? (
        <Suspense fallback={null}>
          <div className="mb-6 empty:hidden">
            <ReconciliationNotice />
          </div>
        </Suspense>
      ) : null}
      {holds("finance") ? (
        <Section title="Finance">
          <FinanceHome session={session} />
        </Section>
      ) : null}
      {holds("admin") ? (
        <Section title="Admin">
          <AdminHome session={session} />
        </Section>
      ) : null}
      <nav aria-labelledby="quick-links">
        <h2 id="quick-links" className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">
          Go to
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => (
            <li key={item.href}>
              <Link
                href={item.href}
                className="block rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 hover:ring-brand-500"
              >
                <span className="text-base font-semibold text-slate-900">{item.label}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}

/** Each role's section streams in on its own: one slow figure does not hold the others back. */
function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="mb-8 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" aria-busy="true" aria-label="Loading">
          <p className="text-sm text-slate-600" role="status">
            Loading {title.toLowerCase()}…
          </p>
        </div>
      }
    >
      {children}
    </Suspense>
  );
}
