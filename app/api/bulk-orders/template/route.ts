import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { bulkTemplate } from "@/lib/bulk-orders/bulk-template";

/** A bulk-order CSV template prefilled for one product (?productId=). */
export const GET = withStaff(
  async ({ req, actor }) => {
    const { fileName, csv } = await bulkTemplate(actor, searchParamsObject(req.url));
    return new Response(csv, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName}"`,
        "cache-control": "no-store",
      },
    });
  },
  { permission: "orders.create" },
);
