import { z } from "zod";
import { rolesWith } from "./define-kind";

/**
 * A request awaiting a decision (a withdrawal, a spend request) as its notifications name it;
 * the domain describes it (lib/withdrawals/withdrawal-notices.ts, lib/spend/spend-notices.ts).
 */
export const approvalSubject = z.object({
  id: z.string(),
  /** A spend request sent back to approvers after a price rise is decided again: each round is its own event. */
  round: z.number().int().optional(),
  /** "Withdrawal of $500.00", "Order of $57.00 (ref. spring-17)", "Bulk file of $570.00 (10 orders)". */
  what: z.string(),
  requestedById: z.string(),
  requesterName: z.string(),
  /** The page about it, e.g. `/spend-approvals#sr_…`. */
  link: z.string(),
  /**
   * What an approver needs to decide from the email alone, one line each: what it buys, the
   * requester's reason, why it needs approval. Words and amounts only, never a code or a key.
   */
  details: z.array(z.string()).optional(),
});
export type ApprovalSubject = z.infer<typeof approvalSubject>;

/** The request's id, and its round after the first (`sr_…:r2`): the last part of its event keys. */
export function subjectKey(subject: ApprovalSubject): string {
  return subject.round && subject.round > 1 ? `${subject.id}:r${subject.round}` : subject.id;
}

/** A waiting request's notices: to its approvers, never its requester, with its deadline. */
export const toApprovers = {
  roles: rolesWith("spend.approve", "withdrawals.approve"),
  to: "roles" as const,
  payload: z.object({ subject: approvalSubject, expiresAt: z.date() }),
  audience: ({ subject }: { subject: ApprovalSubject }) => ({ exceptStaffIds: [subject.requestedById] }),
};
