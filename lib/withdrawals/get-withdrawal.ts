import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { withdrawalIdSchema } from "./schemas";
import { syncOpenWithdrawals } from "./sync-withdrawals";
import { toWithdrawalView, withStaffNames, type WithdrawalRow, type WithdrawalView } from "./withdrawal-view";

export async function getWithdrawalRow(id: string): Promise<WithdrawalRow> {
  const row = await db().withdrawalRequest.findUnique({ where: { id }, include: withStaffNames });
  if (!row) throw new AppError("not_found", "This withdrawal request does not exist.");
  return row;
}

export async function getWithdrawal(actor: Actor, id: unknown): Promise<WithdrawalView> {
  assertCan(actor, "withdrawals.read");
  const requestId = parseInput(withdrawalIdSchema, id);
  await syncOpenWithdrawals({ priority: "interactive", throttle: true });
  return toWithdrawalView(await getWithdrawalRow(requestId), actor);
}
