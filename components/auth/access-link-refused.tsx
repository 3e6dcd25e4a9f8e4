import { Link } from "@/components/ui/link";
import { LINK_REFUSALS, type LinkRefusal } from "@/lib/staff/access-links/link-rules";

/** A one-time link that does not work: why, in words, and the way to the sign-in page. Never whose link it was. */
export function AccessLinkRefused({ reason }: { reason: LinkRefusal }) {
  const { title, detail } = LINK_REFUSALS[reason];
  return (
    <div className="space-y-4" data-testid="link-refused" data-reason={reason}>
      <div role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
        <p className="font-medium">{title}</p>
        <p className="mt-1">{detail}</p>
      </div>
      <Link href="/signin" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline">
        Go to the sign-in page
      </Link>
    </div>
  );
}
