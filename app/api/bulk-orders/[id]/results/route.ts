import { withStaff } from "@/lib/http/with-staff";
import { exportBulkResults } from "@/lib/bulk-orders/export-bulk-results";

/** A bulk order's per-row results (row, reference, order id, status, reason) as a CSV download. */
export const GET = withStaff<{ id: string }>(
  async ({ actor, params }) => {
    const { fileName, csv } = await exportBulkResults(actor, params.id);
    return new Response(csv, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName}"`,
        "cache-control": "no-store",
      },
    });
  },
  { permission: "orders.read" },
);
