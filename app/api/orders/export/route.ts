import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { orderFilterSchema } from "@/lib/orders/list-orders";
import { exportOrdersCsv } from "@/lib/orders/export-orders";

/** The filtered orders list as a CSV download, streamed. */
export const GET = withStaff(
  async ({ req, actor }) => {
    const url = new URL(req.url);
    const filter = parseInput(orderFilterSchema, { ...searchParamsObject(url), status: url.searchParams.getAll("status") });
    const stamp = new Date().toISOString().slice(0, 10);
    return new Response(await exportOrdersCsv(actor, filter), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="orders-${stamp}.csv"`,
        "cache-control": "no-store",
      },
    });
  },
  { permission: "orders.read" },
);
