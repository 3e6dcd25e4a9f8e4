import { Suspense } from "react";
import { Link } from "@/components/ui/link";
import { Bell, UnreadBell } from "@/components/notifications/bell";
import { can, ROLE_LABELS, isRole } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/auth/actor";
import type { UnreadFigure } from "@/lib/notifications/unread-count";
import { NAV_ITEMS } from "./nav-items";
import { NavLink } from "./nav-link";
import { SignOutButton } from "./sign-out-button";
import { MobileNav } from "./mobile-nav";

/** The app's frame: a sidebar from 768 px up, a top bar with a menu drawer below it. */
export function Shell({ actor, unread }: { actor: Actor; unread: Promise<UnreadFigure> }) {
  return (
    <>
      <aside className="sticky top-0 hidden h-screen w-60 shrink-0 flex-col overflow-y-auto border-r border-slate-200 bg-white md:flex">
        <div className="flex items-center justify-between pr-3">
          <Brand />
          <ShellBell unread={unread} testId="bell" markOpened />
        </div>
        <ShellNav actor={actor} primary />
      </aside>
      <MobileNav brand={<Brand compact />} actions={<ShellBell unread={unread} testId="bell-phone" />}>
        <ShellNav actor={actor} primary={false} />
      </MobileNav>
    </>
  );
}

/** Streams in after the shell: the count never holds up a page. */
function ShellBell({ unread, testId, markOpened }: { unread: Promise<UnreadFigure>; testId: string; markOpened?: boolean }) {
  return (
    <Suspense fallback={<Bell count={null} />}>
      <UnreadBell unread={unread} testId={testId} markOpened={markOpened} />
    </Suspense>
  );
}

function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <Link href="/" className={`block ${compact ? "px-1 py-1" : "px-5 py-5"}`}>
      <span className="block text-xs font-semibold uppercase tracking-wider text-brand-600">Digital-Goods Issuing</span>
      <span className="block text-base font-semibold text-slate-900">Back-office</span>
    </Link>
  );
}

/** The navigation and the signed-in person; `primary` is the sidebar's copy, which keeps the test ids. */
function ShellNav({ actor, primary }: { actor: Actor; primary: boolean }) {
  const items = NAV_ITEMS.filter((item) => can(actor.roles, item.permission));
  return (
    <>
      <nav aria-label="Main" className="flex-1 space-y-1 px-3">
        {items.map((item) => (
          <NavLink key={item.href} href={item.href} label={item.label} />
        ))}
      </nav>
      <div className="mt-4 border-t border-slate-200 p-3">
        <div className="px-3 pb-2" data-testid={primary ? "current-staff" : "current-staff-menu"}>
          <p className="truncate text-sm font-medium text-slate-900">{actor.name}</p>
          <p className="truncate text-xs text-slate-500">{actor.email}</p>
          <p className="mt-1 flex flex-wrap gap-1" data-testid={primary ? "current-roles" : undefined}>
            {actor.roles.map((role) => (
              <span key={role} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">
                {isRole(role) ? ROLE_LABELS[role] : role}
              </span>
            ))}
          </p>
        </div>
        <Link
          href="/account/security"
          className="block w-full rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100"
        >
          Sign-in security
        </Link>
        <Link
          href="/account/notifications"
          className="block w-full rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100"
        >
          Notification settings
        </Link>
        <SignOutButton />
      </div>
    </>
  );
}
