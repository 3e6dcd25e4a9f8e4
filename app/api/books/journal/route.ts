import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { csvDownload } from "@/lib/http/csv-download";
import { exportJournal } from "@/lib/books/export-journal";

/** A month's journal as CSV (?period=YYYY-MM&format=plain|xero|qbo&currency=USD), streamed. */
export const GET = withStaff(
  async ({ req, actor }) => {
    const journal = await exportJournal(actor, searchParamsObject(req.url));
    return csvDownload(journal.stream, journal.name);
  },
  { permission: "books.read" },
);
