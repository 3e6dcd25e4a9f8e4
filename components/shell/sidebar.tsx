import Link from "next/link";
import { can, ROLE_LABELS, isRole } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/auth/actor";
import { NAV_ITEMS } from "./nav-items";
import { NavLink } from "./nav-link";
import { SignOutButton } from "./sign-out-button";

export function Sidebar({ actor }: { actor: Actor }) {
  const items = NAV_ITEMS.filter((item) => can(actor.roles, item.permission));
  return (
    <aside className="flex w-60 shrink-0 flex-col border-r border-slate-200 bg-white">
      <Link href="/" className="block px-5 py-5">
        <span className="block text-xs font-semibold uppercase tracking-wider text-brand-600">Digital-Goods Issuing</span>
        <span className="block text-base font-semibold text-slate-900">Back-office</span>
      </Link>
      <nav aria-label="Main" className="flex-1 space-y-1 px-3">
        {items.map((item) => (
          <NavLink key={item.href} href={item.href} label={item.label} />
        ))}
      </nav>
      <div className="border-t border-slate-200 p-3">
        <div className="px-3 pb-2" data-testid="current-staff">
          <p className="truncate text-sm font-medium text-slate-900">{actor.name}</p>
          <p className="truncate text-xs text-slate-500">{actor.email}</p>
          <p className="mt-1 flex flex-wrap gap-1" data-testid="current-roles">
            {actor.roles.map((role) => (
              <span key={role} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">
                {isRole(role) ? ROLE_LABELS[role] : role}
              </span>
            ))}
          </p>
        </div>
        <SignOutButton />
      </div>
    </aside>
  );
}
