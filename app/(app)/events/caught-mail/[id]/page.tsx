import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageSession } from "@/lib/auth/current";
import { readCaughtMail } from "@/lib/notifications/outbox";
import { PageHeader, Card } from "@/components/ui/page-header";
import { Link } from "@/components/ui/link";
import { utcTime } from "@/components/ui/utc-time";

export const metadata: Metadata = { title: "Caught mail" };

/**
 * One caught message as sent: its headers, its HTML part as a reader would see it, its plain
 * text and its HTML source. The HTML is drawn in an iframe sandboxed with no scripts and an
 * opaque origin (its markup can reach nothing of this page or the session); links open in a
 * new tab. It inherits this page's policy (scripts need our nonce; images only from here).
 */
export default async function CaughtMessagePage({ params }: { params: Promise<{ id: string }> }) {
  const { actor } = await requirePageSession("notifications.outbox");
  const mail = await readCaughtMail(actor, (await params).id);
  if (!mail) notFound();
  return (
    <>
      <PageHeader
        title={mail.subject || "(no subject)"}
        actions={
          <Link
            href="/events/caught-mail"
            className="inline-flex min-h-11 items-center text-sm font-medium text-brand-600 hover:underline"
          >
            All caught mail
          </Link>
        }
      />
      <Card>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]" data-testid="caught-headers">
          <dt className="font-medium text-slate-600">From</dt>
          <dd className="break-all">{mail.from}</dd>
          <dt className="font-medium text-slate-600">To</dt>
          <dd className="break-all">{mail.to.join(", ")}</dd>
          <dt className="font-medium text-slate-600">Received</dt>
          <dd>{utcTime(mail.receivedAt, "second")}</dd>
          <dt className="font-medium text-slate-600">Message-ID</dt>
          <dd className="break-all font-mono text-xs">{mail.messageId ?? "—"}</dd>
        </dl>
        {mail.html ? (
          <iframe
            title="The message as its HTML part shows it"
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={withLinksInNewTab(mail.html)}
            referrerPolicy="no-referrer"
            className="mt-4 h-[28rem] w-full rounded border border-slate-200 bg-white"
            data-testid="caught-html"
          />
        ) : null}
        <h2 className="mt-4 text-sm font-medium text-slate-700">Plain text</h2>
        <pre className="mt-2 whitespace-pre-wrap break-words rounded bg-slate-50 p-3 text-sm" data-testid="caught-text">
          {mail.text}
        </pre>
        {mail.html ? (
          <details className="mt-4">
            <summary className="min-h-11 cursor-pointer py-2 text-sm font-medium">HTML part (source)</summary>
            <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-3 font-mono text-xs">
              {mail.html}
            </pre>
          </details>
        ) : null}
      </Card>
    </>
  );
}

/** The mail's HTML with a `<base target="_blank">` after its doctype (before it, the page would render in quirks mode). */
function withLinksInNewTab(html: string): string {
  return html.replace(/^(\s*<!doctype[^>]*>)?/i, (doctype) => `${doctype}<base target="_blank">`);
}
