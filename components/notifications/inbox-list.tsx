"use client";

import { useRouter } from "next/navigation";
import { Link } from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { useApiMutation } from "@/components/use-api-mutation";
import { utcTime } from "@/components/ui/utc-time";
import type { InboxItem } from "@/lib/notifications/inbox";

/** One's notifications: each a link to what it is about (the page it opens marks it read: MarkOpenedRead), mark one or all read. */
export function InboxList({ items, anyUnread }: { items: InboxItem[]; anyUnread: boolean }) {
  const router = useRouter();
  const markOne = useApiMutation(
    (id: string) => ({ method: "POST", url: `/api/notifications/${encodeURIComponent(id)}/read`, body: {} }),
    {
      onSuccess: () => router.refresh(),
    },
  );
  const markAll = useApiMutation(() => ({ method: "POST", url: "/api/notifications/read-all", body: {} }), {
    onSuccess: () => router.refresh(),
  });
  const problem = markOne.problem ?? markAll.problem;
  return (
    <div className="space-y-3">
      {problem ? (
        <Notice tone="error" correlationId={problem.correlationId}>
          {problem.detail}
        </Notice>
      ) : null}
      {anyUnread ? (
        <div className="flex justify-end">
          <Button variant="secondary" disabled={markAll.pending} onClick={() => markAll.send()} data-testid="mark-all-read">
            Mark all read
          </Button>
        </div>
      ) : null}
      <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200" data-testid="inbox">
        {items.map((item) => (
          <li
            key={item.id}
            className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start"
            data-testid="inbox-item"
            data-read={item.read ? "1" : "0"}
          >
            <div className="min-w-0 flex-1">
              <p className="text-xs text-slate-500">
                {item.read ? null : (
                  <span className="mr-2 inline-block rounded bg-brand-50 px-1.5 py-0.5 font-medium text-brand-700">Unread</span>
                )}
                {item.kindLabel} · {utcTime(item.at)}
              </p>
              <Link
                href={item.link}
                className={`mt-1 block break-words text-sm text-brand-700 hover:underline ${item.read ? "" : "font-semibold"}`}
              >
                {item.title}
              </Link>
              {item.body ? <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-600">{item.body}</p> : null}
            </div>
            {item.read ? null : (
              <Button variant="ghost" className="self-start" disabled={markOne.pending} onClick={() => markOne.send(item.id)}>
                Mark read<span className="sr-only">: {item.title}</span>
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
