import { withStaff } from "@/lib/http/with-staff";
import { exportSpendRequestRows } from "@/lib/spend/export-spend-request-rows";

/** A bulk file's rows as its spend request asks for them (product, option, quantity, total), as a CSV download. */
export const GET = withStaff<{ id: string }>(
  async ({ actor, params }) => {
    const { fileName, csv } = await exportSpendRequestRows(actor, params.id);
    return new Response(csv, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName}"`,
        "cache-control": "no-store",
      },
    });
  },
  { permission: "spend.read" },
);
