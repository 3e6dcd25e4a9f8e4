import "server-only";
import type { Tx } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import { notify } from "@/lib/notifications/notify";
import type { ApprovalSubject } from "@/lib/notifications/kinds/approval-subject";

/**
 * The notifications of the maker-checker flows (withdrawals, spend requests) are three kinds
 * (lib/notifications/kinds/approval-*.ts): the request written, decided, about to expire.
 */
export type { ApprovalSubject } from "@/lib/notifications/kinds/approval-subject";

/** Amounts in words: "$57.00", or "$57.00 + €12.00" for a file in several currencies. */
export function amountsInWords(amounts: readonly { currency: string; amountMinor: bigint }[]): string {
  return amounts.map((a) => formatMoney(a.amountMinor, a.currency)).join(" + ") || "nothing";
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
      await notify(tx, "approval.expiring", { subject: await step.subject(tx, row), expiresAt: row.expiresAt });
      return true;
    });
    if (marked) told += 1;
  }
  return told;
}
