import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import { readStoredTotals } from "@/lib/spend/spend-request-id";
import { SPEND_STATE_LABELS, type SpendState } from "@/lib/spend/states";

/** How many of a buyer's requests the home page lists; the figure counts every waiting one. */
export const SPEND_LIST_SIZE = 6;
/** A request that ended without an order stays on the buyer's home this long after it ended. */
export const ENDED_WINDOW_DAYS = 7;

export type BuyerSpendRequest = {
  id: string;
  state: SpendState;
  stateLabel: string;
  /** "Order web-123" / "Bulk file march.csv" */
  title: string;
  /** "$242.50" (or "$10.00 + €5.00" for a file in two currencies) */
  total: string;
  requestedAt: string;
  expiresAt: string;
  /** When it ended (rejected, expired, refused), and the approver's comment on a rejection. */
  endedAt: string | null;
  comment: string | null;
};

export type BuyerSpendRequests = {
  waiting: number;
  /** What the waiting ones add up to, per currency, in words. */
  waitingTotal: string;
  items: BuyerSpendRequest[];
};

const ENDED: SpendState[] = ["rejected", "expired", "failed"];

/**
 * The buyer's own spend requests that need them to know: those waiting for an approver, and
 * those that ended without an order in the last week (rejected, expired, refused), newest
 * first. A waiting request is not an order yet: the "orders today" figure does not count it.
 * Reads the (requestedById, requestedAt) index: one buyer's requests, never the table.
 */
export async function buyerSpendRequests(actor: Actor, now = new Date()): Promise<BuyerSpendRequests> {
  assertCan(actor, "spend.read");
  const endedSince = new Date(now.getTime() - ENDED_WINDOW_DAYS * 86_400_000);
  const rows = await db().spendRequest.findMany({
    where: {
      requestedById: actor.staffId,
      OR: [{ state: "awaiting" }, { state: { in: ENDED }, updatedAt: { gte: endedSince } }],
    },
    select: {
      id: true,
      kind: true,
      state: true,
      totals: true,
      orderRequest: true,
      bulkOrderId: true,
      requestedAt: true,
      expiresAt: true,
      decidedAt: true,
      decisionComment: true,
      updatedAt: true,
    },
    orderBy: [{ requestedAt: "desc" }, { id: "desc" }],
  });
  const files = await db().bulkOrder.findMany({
    where: { id: { in: rows.flatMap((r) => (r.bulkOrderId ? [r.bulkOrderId] : [])) } },
    select: { id: true, fileName: true },
  });
  const fileNames = new Map(files.map((f) => [f.id, f.fileName]));
  const waiting = rows.filter((r) => r.state === "awaiting");
  const sums = new Map<string, bigint>();
  for (const r of waiting)
    for (const t of readStoredTotals(r.totals)) sums.set(t.currency, (sums.get(t.currency) ?? 0n) + t.amountMinor);
  const words = (totals: { currency: string; amountMinor: bigint }[]) =>
    totals.map((t) => formatMoney(t.amountMinor, t.currency)).join(" + ");
  return {
    waiting: waiting.length,
    waitingTotal: words([...sums].map(([currency, amountMinor]) => ({ currency, amountMinor }))),
    items: rows.slice(0, SPEND_LIST_SIZE).map((r) => {
      const state = r.state as SpendState;
      const reference = (r.orderRequest as { clientReference?: string } | null)?.clientReference;
      const fileName = r.bulkOrderId ? fileNames.get(r.bulkOrderId) : null;
      return {
        id: r.id,
        state,
        stateLabel: SPEND_STATE_LABELS[state] ?? r.state,
        title: r.kind === "bulk" ? `Bulk file${fileName ? ` ${fileName}` : ""}` : `Order ${reference ?? ""}`.trim(),
        total: words(readStoredTotals(r.totals)),
        requestedAt: r.requestedAt.toISOString(),
        expiresAt: r.expiresAt.toISOString(),
        endedAt: state === "awaiting" ? null : (r.decidedAt ?? r.updatedAt).toISOString(),
        comment: state === "rejected" ? r.decisionComment : null,
      };
    }),
  };
}
