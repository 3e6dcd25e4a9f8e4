import "server-only";
import type { ApprovalSubject } from "@/lib/approval-notices";
import type { Tx } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";

/** A withdrawal request as its notifications name it: "Withdrawal of $500.00", linked to its card. */
export async function withdrawalSubject(
  tx: Tx,
  row: { id: string; amountMinor: bigint; currency: string; requestedById: string },
  requesterName?: string,
): Promise<ApprovalSubject> {
  const name =
    requesterName ?? (await tx.staff.findUnique({ where: { id: row.requestedById }, select: { name: true } }))?.name ?? "finance";
  return {
    id: row.id,
    what: `Withdrawal of ${formatMoney(row.amountMinor, row.currency)}`,
    requestedById: row.requestedById,
    requesterName: name,
    link: `/withdrawals#${encodeURIComponent(row.id)}-title`,
  };
}
