import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { listInbox } from "@/lib/notifications/inbox";
import { PageHeader } from "@/components/ui/page-header";
import { Link } from "@/components/ui/link";
import { InboxList } from "@/components/notifications/inbox-list";
import type { SearchParams } from "@/components/ui/search-params";

export const metadata: Metadata = { title: "Notifications" };

/** One's own notifications, newest first: what needs one, with a link to it. */
export default async function NotificationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession();
  const raw = await searchParams;
  const before = typeof raw.before === "string" ? raw.before : undefined;
  const unreadOnly = raw.show === "unread";
  const { items, next } = await listInbox(actor, { before, unreadOnly });
  const base = unreadOnly ? "/notifications?show=unread" : "/notifications";
  return (
    <>
      <PageHeader
        title="Notifications"
        description={
          <>
            What needs you, as it happens: also sent by email as you chose in{" "}
            <Link href="/account/notifications" className="font-medium text-brand-600 hover:underline">
              notification settings
            </Link>
            .
          </>
        }
      />
      <nav aria-label="Show" className="mb-4 flex gap-2 text-sm">
        <Link href="/notifications" aria-current={unreadOnly ? undefined : "page"} className={tab(!unreadOnly)}>
          All
        </Link>
        <Link href="/notifications?show=unread" aria-current={unreadOnly ? "page" : undefined} className={tab(unreadOnly)}>
          Unread
        </Link>
      </nav>
      {items.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200" data-testid="inbox-empty">
          {before ? "No older notifications." : unreadOnly ? "Nothing unread." : "No notifications yet."}
        </p>
      ) : (
        <InboxList items={items} anyUnread={items.some((i) => !i.read)} />
      )}
      {next ? (
        <p className="mt-4 text-right text-sm">
          <Link
            href={`${base}${base.includes("?") ? "&" : "?"}before=${encodeURIComponent(next)}`}
            className="inline-block px-3 py-2 font-medium text-brand-600 hover:underline"
          >
            Older notifications →
          </Link>
        </p>
      ) : null}
    </>
  );
}

function tab(active: boolean): string {
  return `inline-flex min-h-11 items-center rounded-md px-3 font-medium ${active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"}`;
}
