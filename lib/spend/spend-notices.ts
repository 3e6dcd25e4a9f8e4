import "server-only";
import { amountsInWords, type ApprovalSubject } from "@/lib/approval-notices";
import type { Tx } from "@/lib/db/client";
import { notify } from "@/lib/notifications/notify";
import type { SpendRequest } from "@/lib/db/generated/client";
import { storedWhyClause } from "./approval-reasons";
import { readStoredTotals } from "./spend-request-id";
import { storedSpendLine, toSpendLineView } from "./spend-lines";
import { formatMoney } from "@/lib/money";
import { z } from "zod";

/**
 * A spend request as its notifications name it: "Order of $57.00 (ref. spring-17)" or
 * "Bulk file of $570.00 (10 orders)", the requester's name, and its card on the approvals page.
 */
export async function spendSubject(
  tx: Tx,
  row: Pick<
    SpendRequest,
    "id" | "kind" | "totals" | "orderRequest" | "bulkOrderId" | "requestedById" | "round" | "lines" | "reason" | "why"
  >,
  requesterName?: string,
): Promise<ApprovalSubject> {
  const amount = amountsInWords(readStoredTotals(row.totals));
  let what = `Order of ${amount}`;
  if (row.kind === "bulk" && row.bulkOrderId) {
    const bulk = await tx.bulkOrder.findUnique({ where: { id: row.bulkOrderId }, select: { validCount: true } });
    what = `Bulk file of ${amount}${bulk ? ` (${bulk.validCount} ${bulk.validCount === 1 ? "order" : "orders"})` : ""}`;
  } else {
    const reference = referenceOf(row.orderRequest);
    if (reference) what += ` (ref. ${reference})`;
  }
  const name =
    requesterName ?? (await tx.staff.findUnique({ where: { id: row.requestedById }, select: { name: true } }))?.name ?? "a buyer";
  return {
    id: row.id,
    round: row.round,
    what,
    requestedById: row.requestedById,
    requesterName: name,
    link: `/spend-approvals#${row.id}`,
    details: [
      ...linesInWords(row.lines),
      `Reason: ${oneLine(row.reason)}`,
      `Needs approval because ${oneLine(storedWhyClause(row.why))}.`,
    ],
  };
}

/** "2 × Blue Harbor Coffee ($100): $200.00", one line per stored line (none for a bulk file: its page lists them). */
function linesInWords(json: unknown): string[] {
  const parsed = z.array(storedSpendLine).safeParse(json);
  if (!parsed.success) return [];
  return parsed.data.map((line) => {
    const { productName, productId, option, quantity } = toSpendLineView(line);
    const what = `${productName ?? `product ${productId}`}${option ? ` (${option})` : ""}`;
    return `${quantity} × ${oneLine(what)}: ${formatMoney(BigInt(line.totalMinor), line.currency)}`;
  });
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 300);

function referenceOf(orderRequest: unknown): string | null {
  if (!orderRequest || typeof orderRequest !== "object") return null;
  const reference = (orderRequest as { clientReference?: unknown }).clientReference;
  return typeof reference === "string" && reference ? reference.slice(0, 80) : null;
}

/**
 * An approved order the Issuing Service then refused (not a price rise, which goes back to the
 * approvers): the buyer hears, in the transaction that records it as failed.
 */
export async function noticeApprovedOrderRefused(tx: Tx, row: SpendRequest, code: string): Promise<void> {
  const subject = await spendSubject(tx, row);
  await notify(tx, "orders.failed", {
    about: "approved_refused",
    spendRequestId: row.id,
    what: subject.what,
    link: subject.link,
    code,
    buyerId: row.requestedById,
  });
}

/**
 * An approved order placed: the buyer hears the decision and what it became, linked to the
 * order, in the transaction that records it placed.
 */
export async function noticeApprovedOrderPlaced(
  tx: Tx,
  row: SpendRequest,
  order: { id: string; status: string | null },
): Promise<void> {
  if (!row.decidedById) return;
  const decider = await tx.staff.findUnique({ where: { id: row.decidedById }, select: { name: true } });
  await notify(tx, "approval.decided", {
    subject: await spendSubject(tx, row),
    approved: true,
    deciderId: row.decidedById,
    deciderName: decider?.name ?? "an approver",
    then: { what: "order_placed", orderId: order.id, fulfilled: order.status === "fulfilled" },
  });
}
