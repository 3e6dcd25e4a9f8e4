import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { formatMoney, parseMinor } from "@/lib/money";
import { staffNames } from "@/lib/spend/get-spend-request";
import { toSpendRequestView } from "@/lib/spend/spend-request-view";

/** How many waiting items the home page lists; the count says how many there are in all. */
export const WAITING_LIST_SIZE = 8;

export type WaitingDecision = {
  kind: "withdrawal" | "spend";
  id: string;
  /** "Withdrawal of $250.00" / "Order web-123 · $80.00" */
  title: string;
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
  /** Where this person decides it. */
  href: string;
};

export type WaitingDecisions = { total: number; withdrawals: number; spendRequests: number; items: WaitingDecision[] };

/**
 * Withdrawals and spend requests waiting for a decision this person may take: not their
 * own (maker-checker), not past their expiry (the worker marks those shortly), oldest
 * first. Only what the person's roles let them decide is counted.
 */
export async function waitingDecisions(actor: Actor, now = new Date()): Promise<WaitingDecisions> {
  const decidesWithdrawals = can(actor.roles, "withdrawals.approve");
  const decidesSpend = can(actor.roles, "spend.approve");
  const open = { requestedById: { not: actor.staffId }, expiresAt: { gt: now } };
  const withdrawalsWhere = { ...open, state: "pending" };
  const spendWhere = { ...open, state: "awaiting" };
  const oldest = [{ requestedAt: "asc" as const }, { id: "asc" as const }];
  const [withdrawalCount, withdrawals, spendCount, spendRows] = await Promise.all([
    decidesWithdrawals ? db().withdrawalRequest.count({ where: withdrawalsWhere }) : 0,
    decidesWithdrawals
      ? db().withdrawalRequest.findMany({
          where: withdrawalsWhere,
          include: { requestedBy: { select: { name: true } } },
          orderBy: oldest,
          take: WAITING_LIST_SIZE,
        })
      : [],
    decidesSpend ? db().spendRequest.count({ where: spendWhere }) : 0,
    decidesSpend ? db().spendRequest.findMany({ where: spendWhere, orderBy: oldest, take: WAITING_LIST_SIZE }) : [],
  ]);
  const names = await staffNames(spendRows);
  const items: WaitingDecision[] = [
    ...withdrawals.map((w) => ({
      kind: "withdrawal" as const,
      id: w.id,
      title: `Withdrawal of ${formatMoney(w.amountMinor, w.currency)}`,
      requestedBy: w.requestedBy.name,
      requestedAt: w.requestedAt.toISOString(),
      expiresAt: w.expiresAt.toISOString(),
      href: `/withdrawals?state=pending#${encodeURIComponent(w.id)}-title`,
    })),
    ...spendRows.map((row) => {
      const view = toSpendRequestView(row, names, actor);
      const what = view.kind === "bulk" ? "Bulk file" : `Order ${view.clientReference ?? ""}`.trim();
      return {
        kind: "spend" as const,
        id: view.id,
        title: `${what} · ${view.totals.map((t) => formatMoney(parseMinor(t.total, t.currency), t.currency)).join(" + ")}`,
        requestedBy: view.requestedBy.name,
        requestedAt: view.requestedAt,
        expiresAt: view.expiresAt,
        href: "/spend-approvals",
      };
    }),
  ];
  items.sort((a, b) => a.requestedAt.localeCompare(b.requestedAt) || a.id.localeCompare(b.id));
  return {
    total: withdrawalCount + spendCount,
    withdrawals: withdrawalCount,
    spendRequests: spendCount,
    items: items.slice(0, WAITING_LIST_SIZE),
  };
}
