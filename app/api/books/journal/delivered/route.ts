import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { csvDownload } from "@/lib/http/csv-download";
import { exportDeliveredJournal } from "@/lib/books/export-delivered-journal";

/** The journal an emailed link names (?t=<sealed token>), while the link lasts. */
export const GET = withStaff(
  async ({ req, actor }) => {
    const journal = await exportDeliveredJournal(actor, searchParamsObject(req.url));
    return csvDownload(journal.stream, journal.name);
  },
  { permission: "books.read" },
);
