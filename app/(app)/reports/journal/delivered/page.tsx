import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { openJournalLink } from "@/lib/books/delivery-link";
import { JOURNAL_FORMATS } from "@/lib/books/journal-formats";
import { periodLabel } from "@/lib/books/periods";
import { Card, PageHeader } from "@/components/ui/page-header";
import { Link } from "@/components/ui/link";
import { buttonClass } from "@/components/ui/button";
import type { SearchParams } from "@/components/ui/search-params";

export const metadata: Metadata = { title: "Journal download" };

/** Where the monthly email's link leads: after sign-in, the journal it names, while the link lasts. */
export default async function DeliveredJournalPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePageSession("books.read");
  const raw = (await searchParams).t;
  const token = typeof raw === "string" && raw.length <= 2_000 ? raw : "";
  const link = token ? await openJournalLink(token) : null;
  return (
    <>
      <PageHeader title="Journal download" />
      <Card>
        {link ? (
          <div className="space-y-3" data-testid="delivered-journal">
            <p className="text-sm text-slate-700">
              The journal for <strong>{periodLabel(link.period)}</strong> ({JOURNAL_FORMATS[link.format].label}).
            </p>
            <a
              className={buttonClass()}
              href={`/api/books/journal/delivered?t=${encodeURIComponent(token)}`}
              download
              data-testid="delivered-download"
            >
              Download the journal
            </a>
          </div>
        ) : (
          <p className="text-sm text-slate-700" data-testid="delivered-expired">
            This link has expired or is not valid.{" "}
            <Link href="/reports/journal" className="font-medium text-brand-600 hover:underline">
              Download the journal from the accounting export page.
            </Link>
          </p>
        )}
      </Card>
    </>
  );
}
