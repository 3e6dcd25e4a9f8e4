import { z } from "zod";
import { formatMoney } from "@/lib/money";
import { defineKind, rolesWith } from "./define-kind";

const amount = z.object({ currency: z.string(), amountMinor: z.bigint() });

/** What failed: one order, a bulk file's orders (one message per file), or an approved order the upstream refused. */
const failure = z.discriminatedUnion("about", [
  z.object({ about: z.literal("order"), orderId: z.string(), clientReference: z.string(), total: amount, buyerId: z.string() }),
  z.object({
    about: z.literal("bulk"),
    bulkOrderId: z.string(),
    fileName: z.string().nullable(),
    failed: z.number().int(),
    valid: z.number().int(),
    amounts: z.array(amount),
    buyerId: z.string(),
  }),
  z.object({
    about: z.literal("approved_refused"),
    spendRequestId: z.string(),
    what: z.string(),
    link: z.string(),
    code: z.string(),
    buyerId: z.string(),
  }),
]);

/** The buyer who placed it hears; an order nobody in the app placed tells nobody. */
export const ordersFailed = defineKind({
  label: "Your orders failed",
  roles: rolesWith("orders.create"),
  to: "named",
  payload: failure,
  eventKey: (f) => {
    if (f.about === "order") return `orders.failed:${f.orderId}`;
    if (f.about === "bulk") return `orders.failed:bulk:${f.bulkOrderId}`;
    return `orders.failed:${f.spendRequestId}`;
  },
  compose: (f) => {
    if (f.about === "order")
      return {
        title: `Order ${f.clientReference.slice(0, 80)} of ${formatMoney(f.total.amountMinor, f.total.currency)} failed`,
        body: "The Issuing Service did not fulfil it; the reserved amount went back to the wallet and nothing was charged.",
        link: `/orders/${encodeURIComponent(f.orderId)}`,
      };
    if (f.about === "bulk") {
      const sum = f.amounts.map((a) => formatMoney(a.amountMinor, a.currency)).join(" + ");
      const file = f.fileName ? `Bulk file ${f.fileName}` : "A bulk file";
      return {
        title: `${file}: ${f.failed} of ${f.valid} ${f.valid === 1 ? "order" : "orders"} failed${sum ? ` (${sum})` : ""}`,
        body: "Nothing was charged for the failed orders. The file's page lists each row and why it failed.",
        link: `/orders/bulk/${encodeURIComponent(f.bulkOrderId)}`,
      };
    }
    return {
      title: `${f.what} was approved but the Issuing Service refused it (${f.code})`,
      body: "Nothing was charged; the amount no longer counts against your limits. Submit it again if it is still needed.",
      link: f.link,
    };
  },
  audience: (f) => ({ staffIds: [f.buyerId] }),
});
