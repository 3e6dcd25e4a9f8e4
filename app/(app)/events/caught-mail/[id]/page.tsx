import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageSession } from "@/lib/auth/current";
import { readCaughtMail } from "@/lib/notifications/outbox";
import { PageHeader, Card } from "@/components/ui/page-header";
import { Link } from "@/components/ui/link";
import { utcTime } from "@/components/ui/utc-time";

export const metadata: Metadata = { title: "Caught mail" };

/**
 * One caught message as sent: its headers and plain text. The HTML part is shown as source,
 * never rendered (it is the app's own, but a page of ours renders no mail's markup).
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
        <pre className="mt-4 whitespace-pre-wrap break-words rounded bg-slate-50 p-3 text-sm" data-testid="caught-text">
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
