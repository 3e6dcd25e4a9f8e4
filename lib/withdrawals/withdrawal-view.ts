import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import type { Prisma } from "@/lib/db/client";
import { minorToDecimal } from "@/lib/money";
import { WITHDRAWAL_STATE_LABELS, isWithdrawalState, type WithdrawalState } from "./states";

export const withStaffNames = {
  requestedBy: { select: { name: true, email: true } },
  decidedBy: { select: { name: true, email: true } },
  cancelledBy: { select: { name: true, email: true } },
} as const satisfies Prisma.WithdrawalRequestInclude;

export type WithdrawalRow = Prisma.WithdrawalRequestGetPayload<{ include: typeof withStaffNames }>;

type Person = { name: string; email: string } | null;

/** What a page or the API shows of a withdrawal request: amounts as decimal strings, who did each step, and what the viewer may do next. */
export type WithdrawalView = {
  id: string;
  amount: string;
  currency: string;
  fee: string;
  netAmount: string;
  payoutDate: string;
  reason: string;
  state: WithdrawalState;
  stateLabel: string;
  requestedBy: Person;
  requestedAt: string;
  expiresAt: string;
  decision: "approved" | "rejected" | null;
  decidedBy: Person;
  decidedAt: string | null;
  decisionComment: string | null;
  sentAt: string | null;
  sendAttempts: number;
  upstreamId: string | null;
  paidAt: string | null;
  cancelledBy: Person;
  cancelledAt: string | null;
  failureMessage: string | null;
  correlationId: string | null;
  /** Approved, and waiting for the worker to send it while background work is stopped (./waiting-for-worker.ts). */
  waitsForBackgroundWork?: true;
  /** For the viewer: the buttons to show. The server checks again on every action. */
  actions: { approve: boolean; reject: boolean; cancel: boolean; ownRequest: boolean };
};

export function toWithdrawalView(row: WithdrawalRow, viewer: Actor, now = new Date()): WithdrawalView {
  const state: WithdrawalState = isWithdrawalState(row.state) ? row.state : "failed";
  const ownRequest = row.requestedById === viewer.staffId;
  const decidable = state === "pending" && row.expiresAt > now && !ownRequest && can(viewer.roles, "withdrawals.approve");
  const decision = row.decidedAt === null ? null : state === "rejected" ? "rejected" : "approved";
  return {
    id: row.id,
    amount: minorToDecimal(row.amountMinor, row.currency),
    currency: row.currency,
    fee: minorToDecimal(row.feeMinor, row.currency),
    netAmount: minorToDecimal(row.netMinor, row.currency),
    payoutDate: (row.payoutDate ?? row.quotedPayoutAt).toISOString(),
    reason: row.reason,
    state,
    stateLabel: WITHDRAWAL_STATE_LABELS[state],
    requestedBy: row.requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    decision,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionComment: row.decisionComment,
    sentAt: row.sendStartedAt?.toISOString() ?? null,
    sendAttempts: row.sendAttempts,
    upstreamId: row.upstreamId,
    paidAt: row.paidAt?.toISOString() ?? null,
    cancelledBy: row.cancelledBy,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    failureMessage: row.failureMessage,
    correlationId: row.correlationId,
    actions: {
      approve: decidable,
      reject: decidable,
      cancel: ["pending", "approved", "requested"].includes(state) && can(viewer.roles, "withdrawals.cancel"),
      ownRequest,
    },
  };
}
