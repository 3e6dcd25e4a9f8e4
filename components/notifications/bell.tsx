import { Link } from "@/components/ui/link";
import { UNREAD_CAP } from "@/lib/notifications/kind-names";
import type { UnreadFigure } from "@/lib/notifications/unread-count";
import { BellFigure } from "./bell-figure";
import { MarkOpenedRead } from "./mark-opened-read";

/** The bell: a link to the inbox with the unread count ("99+" past the cap); null while it loads. */
export function Bell({ count, countedAt = 0, testId }: { count: number | null; countedAt?: number; testId?: string }) {
  return (
    <Link
      href="/notifications"
      data-testid={testId}
      className="relative inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
        <path d="M10 2a5 5 0 0 0-5 5v3.6L3.3 13.4A1 1 0 0 0 4.2 15h11.6a1 1 0 0 0 .9-1.6L15 10.6V7a5 5 0 0 0-5-5Zm-2 14a2 2 0 0 0 4 0H8Z" />
      </svg>
      <BellFigure count={count} countedAt={countedAt} cap={UNREAD_CAP} testId={testId ? `${testId}-count` : undefined} />
    </Link>
  );
}

/**
 * The bell once its count has come (the layout reads it: one capped query per page, shared by
 * both bells). One of the two (`markOpened`) also reads, while anything is unread, what the
 * page opened is about.
 */
export async function UnreadBell({
  unread,
  testId,
  markOpened = false,
}: {
  unread: Promise<UnreadFigure>;
  testId?: string;
  markOpened?: boolean;
}) {
  const { count, countedAt } = await unread;
  return (
    <>
      <Bell count={count} countedAt={countedAt} testId={testId} />
      {markOpened && count > 0 ? <MarkOpenedRead /> : null}
    </>
  );
}
