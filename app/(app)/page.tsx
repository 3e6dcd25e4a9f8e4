import Link from "next/link";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { NAV_ITEMS } from "@/components/shell/nav-items";
import { PageHeader } from "@/components/ui/page-header";

export default async function HomePage() {
  const { actor } = await requirePageSession();
  const items = NAV_ITEMS.filter((item) => can(actor.roles, item.permission));
  return (
    <>
      <PageHeader title={`Welcome, ${actor.name}`} description="Where would you like to go?" />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li key={item.href}>
            <Link href={item.href} className="block rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 hover:ring-brand-500">
              <span className="text-base font-semibold text-slate-900">{item.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
