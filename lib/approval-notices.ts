import "server-only";
import type { Tx } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import { utcMinute } from "@/lib/notifications/compose";
import { notify } from "@/lib/notifications/notify";

/**
 * The notifications of the maker-checker flows (withdrawals, spend requests), in the
 * transaction of the event that causes each: the request written (approvers hear, except the
 * requester), the decision (the requester hears, never the decider), the request about to
 * expire undecided (approvers, once: the caller marks the row in the same transaction).
 * Titles say what and how much; nothing but amounts, references and names.
 */
export type ApprovalSubject = {
  id: string;
  /** A spend request sent back to approvers after a price rise is decided again: each round is its own event. */
  round?: number;
  /** "Withdrawal of $500.00", "Order of $57.00 (ref. spring-17)", "Bulk file of $570.00 (10 orders)". */
  what: string;
  requestedById: string;
  requesterName: string;
  /** The page about it, e.g. `/spend-approvals#sr_…`. */
  link: string;
  /**
   * What an approver needs to decide from the email alone, one line each: what it buys, the
   * requester's reason, why it needs approval. Words and amounts only, never a code or a key.
   */
  details?: string[];
};

/** Amounts in words: "$57.00", or "$57.00 + €12.00" for a file in several currencies. */
export function amountsInWords(amounts: readonly { currency: string; amountMinor: bigint }[]): string {
  return amounts.map((a) => formatMoney(a.amountMinor, a.currency)).join(" + ") || "nothing";
}

/** The request's id, and its round after the first (`sr_…:r2`). */
function eventId(subject: ApprovalSubject): string {
  return subject.round && subject.round > 1 ? `${subject.id}:r${subject.round}` : subject.id;
}

export async function noticeApprovalWaiting(tx: Tx, subject: ApprovalSubject, expiresAt: Date): Promise<void> {
  await notify(tx, {
    kind: "approval.waiting",
    eventKey: `approval.waiting:${eventId(subject)}`,
    title: `${subject.what} from ${subject.requesterName} waits for your approval`,
    body: [
      ...(subject.details ?? []),
      `Asked by ${subject.requesterName}; it expires undecided at ${utcMinute(expiresAt)}.`,
    ].join("\n"),
    link: subject.link,
    audience: { exceptStaffIds: [subject.requestedById] },
  });
}

/**
 * The requester hears the decision and what became of it: `outcome` continues the title ("and
 * placed as order spring-17"), `body` says what comes next; `link` (default: the request's card)
 * may point at what it became, the order.
 */
export async function noticeApprovalDecided(
  tx: Tx,
  subject: ApprovalSubject,
  decision: { approved: boolean; deciderId: string; deciderName: string; outcome?: string; body?: string; link?: string },
): Promise<void> {
  const verb = decision.approved ? "approved" : "rejected";
  await notify(tx, {
    kind: "approval.decided",
    eventKey: `approval.decided:${eventId(subject)}`,
    title: `${subject.what} was ${verb} by ${decision.deciderName}${decision.outcome ? ` ${decision.outcome}` : ""}`,
    ...(decision.body ? { body: decision.body } : {}),
    link: decision.link ?? subject.link,
    audience: { staffIds: [subject.requestedById], exceptStaffIds: [decision.deciderId] },
  });
}

export async function noticeApprovalExpiring(tx: Tx, subject: ApprovalSubject, expiresAt: Date): Promise<void> {
  await notify(tx, {
    kind: "approval.expiring",
    eventKey: `approval.expiring:${eventId(subject)}`,
    title: `${subject.what} from ${subject.requesterName} expires undecided at ${utcMinute(expiresAt)}`,
    link: subject.link,
    audience: { exceptStaffIds: [subject.requestedById] },
  });
}

/**
 * Whether a waiting request is close enough to its expiry to warn approvers: within two hours
 * of it, or within the last quarter of a shorter approval window.
 */
export function isAboutToExpire(row: { requestedAt: Date; expiresAt: Date }, now: Date): boolean {
  const left = row.expiresAt.getTime() - now.getTime();
  const window = row.expiresAt.getTime() - row.requestedAt.getTime();
  return left > 0 && left <= Math.min(EXPIRY_NOTICE_MS, window / 4);
}

/** The longest time before expiry at which approvers are warned. */
export const EXPIRY_NOTICE_MS = 2 * 3_600_000;

/**
 * The periodic pass of one kind of request (its maintenance job): each waiting request about
 * to expire is marked (`mark`: a conditional update of its `expiryNoticedAt`, true when this
 * pass set it) and its approvers told, in one transaction, so each request warns once.
 * Returns how many were told.
 */
export async function noticeExpiringRequests<Row extends { requestedAt: Date; expiresAt: Date }>(
  due: readonly Row[],
  now: Date,
  step: {
    transaction: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;
    mark: (tx: Tx, row: Row) => Promise<boolean>;
    subject: (tx: Tx, row: Row) => Promise<ApprovalSubject>;
  },
): Promise<number> {
  let told = 0;
  for (const row of due) {
    if (!isAboutToExpire(row, now)) continue;
    const marked = await step.transaction(async (tx) => {
      if (!(await step.mark(tx, row))) return false;
      await noticeApprovalExpiring(tx, await step.subject(tx, row), row.expiresAt);
      return true;
    });
    if (marked) told += 1;
  }
  return told;
}
