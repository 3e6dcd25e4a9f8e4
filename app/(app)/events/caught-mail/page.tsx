import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { listCaughtMail } from "@/lib/notifications/outbox";
import { PageHeader } from "@/components/ui/page-header";
import { Link } from "@/components/ui/link";
import { DataTable, type Column } from "@/components/ui/data-table";
import { utcTime } from "@/components/ui/utc-time";

export const metadata: Metadata = { title: "Caught mail" };

type Row = Awaited<ReturnType<typeof listCaughtMail>>[number];

const COLUMNS: Column<Row>[] = [
  {
    key: "subject",
    header: "Subject",
    rowHeader: true,
    className: "max-w-md break-words text-sm",
    cell: (row) => (
      <Link href={`/events/caught-mail/${row.id}`} className="font-medium text-brand-600 hover:underline">
        {row.subject || "(no subject)"}
      </Link>
    ),
  },
  { key: "to", header: "To", className: "break-all text-xs", cell: (row) => row.to.join(", ") },
  {
    key: "at",
    header: "Received (UTC)",
    className: "whitespace-nowrap font-mono text-xs",
    cell: (row) => utcTime(row.receivedAt, "second", true),
  },
];

/** Local mode: every email the app would have sent, caught by the local mail catcher. */
export default async function CaughtMailPage() {
  const { actor } = await requirePageSession("notifications.outbox");
  const mail = await listCaughtMail(actor);
  return (
    <>
      <PageHeader
        title="Caught mail"
        description="Local mode without SMTP_URL: the app's email goes to a mail catcher started beside the sandbox, and shows here instead of leaving the machine. The newest 200."
        actions={
          <Link
            href="/events/outbox"
            className="inline-flex min-h-11 items-center text-sm font-medium text-brand-600 hover:underline"
          >
            Outbox
          </Link>
        }
      />
      <DataTable
        name={{ label: "Caught mail", testId: "caught-mail" }}
        columns={COLUMNS}
        rows={mail}
        row={(row) => ({ key: row.id })}
        empty={{ text: "No mail caught yet." }}
      />
    </>
  );
}
