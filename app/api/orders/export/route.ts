import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { csvDownload } from "@/lib/http/csv-download";
import { orderFilterSchema } from "@/lib/orders/list-orders";
import { exportOrdersCsv } from "@/lib/orders/export-orders";

/** The filtered orders list as a CSV download, streamed. */
export const GET = withStaff(
  async ({ req, actor }) => {
    const url = new URL(req.url);
    const filter = parseInput(orderFilterSchema, { ...searchParamsObject(url), status: url.searchParams.getAll("status") });
    return csvDownload(await exportOrdersCsv(actor, filter), "orders");
  },
  { permission: "orders.read" },
);
