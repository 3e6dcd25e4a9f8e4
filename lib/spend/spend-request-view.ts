import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import type { SpendRequest } from "@/lib/db/generated/client";
import { minorToDecimal } from "@/lib/money";
import { storedWhyClause } from "./approval-reasons";
import type { BulkSummaryView } from "./bulk-request-summary";
import type { SpendApprovalFacts } from "./spend-approval-facts";
import { linesFromOrderRequest, readSpendLines, type SpendLineView } from "./spend-lines";
import { readStoredTotals } from "./spend-request-id";
import { isSpendState, spendOutcomeNote, spendStateLabel, type SpendState } from "./states";

export type MoneyAmount = { currency: string; total: string };
export type SpendRequestView = {
  id: string;
  kind: "order" | "bulk";
  state: SpendState;
  stateLabel: string;
  reason: string;
  /** Why it needs approval, a clause that reads after "Needs approval because" (./approval-reasons.ts). */
  why: string;
  totals: MoneyAmount[];
  approvedTotals: MoneyAmount[] | null;
  /** Nothing bought yet, and the catalog watch saw its prices move since ("The price of 3 rows rose 6 % since you uploaded."). */
  priceNote: string | null;
  /** Set after a price rise sent the request back: what was approved before. */
  previousTotals: MoneyAmount[] | null;
  clientReference: string | null;
  /** What an order buys, line by line, as the buyer asked for it (empty for a bulk file). */
  lines: SpendLineView[];
  /** What a bulk file buys, summed by product and option, when it was read for this view. */
  bulk: BulkSummaryView | null;
  /** A bulk file's rows as a CSV download. */
  rowsHref: string | null;
  /** For a waiting request, to those who see everyone's: the buyer's spend against their limits and the wallet after it. */
  facts: SpendApprovalFacts | null;
  bulkOrderId: string | null;
  orderId: string | null;
  failureCode: string | null;
  /** Why it ended without an order, in words. */
  outcomeNote: string | null;
  requestedBy: { id: string; name: string };
  requestedAt: string;
  expiresAt: string;
  decidedBy: { id: string; name: string } | null;
  decidedAt: string | null;
  comment: string | null;
  own: boolean;
  /** Approved, and waiting for the worker to place it while background work is stopped (./waiting-for-worker.ts). */
  waitsForBackgroundWork?: true;
  /** This person may approve or reject it now (never the requester). */
  canDecide: boolean;
};

type Row = SpendRequest;

function amounts(json: unknown): MoneyAmount[] | null {
  if (json == null) return null;
  return readStoredTotals(json).map((a) => ({ currency: a.currency, total: minorToDecimal(a.amountMinor, a.currency) }));
}

/** What a view may carry beside the row, read for a whole page at once (./list-spend-requests.ts). */
export type SpendRequestExtras = { bulk?: BulkSummaryView | null; facts?: SpendApprovalFacts | null; priceNote?: string | null };

export function toSpendRequestView(
  row: Row,
  names: Map<string, string>,
  actor: Actor,
  extras: SpendRequestExtras = {},
): SpendRequestView {
  const state = (isSpendState(row.state) ? row.state : "failed") as SpendState;
  const own = row.requestedById === actor.staffId;
  const request = row.orderRequest as { clientReference?: string } | null;
  const bulk = row.kind === "bulk";
  return {
    id: row.id,
    kind: row.kind === "bulk" ? "bulk" : "order",
    state,
    stateLabel: spendStateLabel(state, row.failureCode),
    reason: row.reason,
    why: storedWhyClause(row.why),
    totals: amounts(row.totals) ?? [],
    approvedTotals: amounts(row.approvedTotals),
    previousTotals: amounts(row.previousTotals),
    clientReference: request?.clientReference ?? null,
    lines: bulk
      ? []
      : (readSpendLines(row.lines) ?? linesFromOrderRequest(row.orderRequest, readStoredTotals(row.totals)[0], row.requestedAt)),
    bulk: extras.bulk ?? null,
    rowsHref: bulk && row.bulkOrderId ? `/api/spend-requests/${encodeURIComponent(row.id)}/rows` : null,
    facts: extras.facts ?? null,
    priceNote: extras.priceNote ?? null,
    bulkOrderId: row.bulkOrderId,
    orderId: row.orderId,
    failureCode: row.failureCode,
    outcomeNote: spendOutcomeNote(row.state, row.failureCode),
    requestedBy: { id: row.requestedById, name: names.get(row.requestedById) ?? "Unknown" },
    requestedAt: row.requestedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    decidedBy: row.decidedById ? { id: row.decidedById, name: names.get(row.decidedById) ?? "Unknown" } : null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    comment: row.decisionComment,
    own,
    canDecide: state === "awaiting" && !own && can(actor.roles, "spend.approve") && row.expiresAt > new Date(),
  };
}
