import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { minorToDecimal } from "@/lib/money";
import type { Priority, Withdrawal } from "@/lib/upstream/client";
import { spentByJob, upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { stateFromUpstream, upstreamFields } from "./send-withdrawal";
import { assertWithdrawalMove } from "./states";

const MAX_PAGES = 10;
/** Pages showing withdrawals sync at most this often per process; the worker syncs too. */
const THROTTLE_MS = 5_000;
const globalForSync = globalThis as unknown as { __withdrawalSyncAt?: number; __withdrawalSync?: Promise<number> };

/**
 * Brings requests the upstream holds (`requested`) up to date: paid after the business-day
 * hold, or cancelled at the Issuing Service. One list read covers all of them (the
 * contract has no single-withdrawal read). Does nothing, and costs nothing, when no
 * request is open upstream. Returns how many requests changed.
 */
export async function syncOpenWithdrawals(options: { priority: Priority; throttle?: boolean }): Promise<number> {
  if (options.throttle && Date.now() - (globalForSync.__withdrawalSyncAt ?? 0) < THROTTLE_MS) return 0;
  // Concurrent page loads share one pass.
  globalForSync.__withdrawalSync ??= run(options.priority).finally(() => {
    globalForSync.__withdrawalSyncAt = Date.now();
    globalForSync.__withdrawalSync = undefined;
  });
  return globalForSync.__withdrawalSync;
}

async function run(priority: Priority): Promise<number> {
  const open = await db().withdrawalRequest.findMany({ where: { state: "requested", upstreamId: { not: null } } });
  if (!open.length) return 0;
  const wanted = new Map(open.map((r) => [r.upstreamId!, r]));
  const found: Withdrawal[] = [];
  try {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES && found.length < wanted.size; page++) {
      const { data } = await upstream().listWithdrawals({ limit: 100, cursor }, { priority, by: spentByJob("withdrawals-sync") });
      found.push(...data.items.filter((w) => wanted.has(w.id)));
      if (!data.hasMore || !data.nextCursor) break;
      cursor = data.nextCursor;
    }
  } catch (error) {
    // A page still shows what the app knows; the worker tries again shortly.
    logger.warn("withdrawals: could not read upstream withdrawals to sync", { code: upstreamFailure(error)?.code ?? "error" });
    return 0;
  }
  let changed = 0;
  for (const w of found) {
    const row = wanted.get(w.id)!;
    const state = stateFromUpstream(w.status);
    if (state === row.state && w.status === row.upstreamStatus) continue;
    // Still requested upstream (only its fields changed) is no move.
    if (state !== "requested") assertWithdrawalMove("requested", state);
    await db().$transaction(async (tx) => {
      const { count } = await tx.withdrawalRequest.updateMany({ where: { id: row.id, state: "requested" }, data: { state } });
      if (count === 0) return;
      await tx.withdrawalRequest.update({ where: { id: row.id }, data: upstreamFields(w) });
      if (state !== "requested") {
        changed += 1;
        await recordAudit(tx, {
          action: state === "paid" ? "withdrawal.paid" : "withdrawal.cancelled_upstream",
          targetId: row.id,
          details: {
            upstreamId: w.id,
            amount: minorToDecimal(row.amountMinor, row.currency),
            currency: row.currency,
            at: w.paidAtUtc ?? w.cancelledAtUtc ?? null,
          },
        });
      }
    });
  }
  return changed;
}
