import "server-only";
import { db, type Tx } from "@/lib/db/client";
import type { BulkOrderRow } from "@/lib/db/generated/client";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { noticeBulkFailures } from "./bulk-failure-notice";
import { assertBulkMove, assertRowMove, type BulkState } from "./states";
import { bulkRowOrderRequest, placeBulkRow, type RowOutcome } from "./place-bulk-row";

/**
 * The bulk-order job: places the confirmed rows one by one (a couple of lanes at once),
 * each under the idempotency key it received at confirmation, and records each result.
 *
 * Resumable by construction: it only ever looks at rows still `pending` or `placing`, so a
 * run that crashed, was stopped, or ran out of its time slice is simply run again. A
 * `placing` row may have been sent before the crash; it is first settled from the
 * idempotency ledger, else re-sent under the same key, which can only find the one order.
 * Returns what is left so the job can queue its own continuation.
 */
export type RunOptions = {
  signal?: AbortSignal;
  /** Stop claiming rows after this long; the caller re-queues the rest. */
  sliceMs?: number;
  /** A `placing` row untouched this long belongs to a run that died: claim it again. */
  reclaimPlacingAfterMs?: number;
  concurrency?: number;
  /** Test hook, called after each row is recorded; throwing stops the run as a crash would. */
  afterRow?: (rowNumber: number) => void | Promise<void>;
};
export type RunResult = { state: BulkState | null; open: number; retryInSeconds: number | null };

/** Longer than one background send may take (its deadline is 120 s). */
export const PLACING_STALE_MS = 150_000;

export async function runBulkOrder(bulkOrderId: string, options: RunOptions = {}): Promise<RunResult> {
  const bulk = await db().bulkOrder.findUnique({ where: { id: bulkOrderId } });
  if (!bulk || bulk.state === "draft" || bulk.state === "awaiting_approval" || bulk.state === "done")
    return { state: (bulk?.state as BulkState) ?? null, open: 0, retryInSeconds: null };
  if (bulk.state === "confirmed") await moveBulk(bulkOrderId, "confirmed", "running", {});
  const actor = await uploaderActor(bulk.createdById);
  await settleFromLedger(bulkOrderId);

  const deadline = Date.now() + (options.sliceMs ?? 60_000);
  const staleMs = options.reclaimPlacingAfterMs ?? PLACING_STALE_MS;
  const attempted = new Set<string>();
  let stop = false;
  const lane = async () => {
    while (!stop && !options.signal?.aborted && Date.now() < deadline) {
      const row = await claimNextRow(bulkOrderId, { staleMs, includePending: actor !== null, skip: attempted });
      if (!row) return;
      try {
        await settleRow(row, actor, bulk.createdById);
        await options.afterRow?.(row.rowNumber);
      } catch (error) {
        stop = true;
        throw error;
      }
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, lane));
  const crashed = lanes.find((l): l is PromiseRejectedResult => l.status === "rejected");
  if (crashed) throw crashed.reason;

  if (!actor) {
    const data = {
      state: "failed",
      errorCode: "forbidden",
      errorMessage: "The person who uploaded this may no longer place orders.",
      settledAt: new Date(),
    };
    assertRowMove("pending", "failed");
    await db().bulkOrderRow.updateMany({ where: { bulkOrderId, state: "pending" }, data });
  }
  return finishIfSettled(bulkOrderId);
}

async function claimNextRow(
  bulkOrderId: string,
  opts: { staleMs: number; includePending: boolean; skip: Set<string> },
): Promise<BulkOrderRow | null> {
  for (let tries = 0; tries < 10; tries++) {
    const staleBefore = new Date(Date.now() - opts.staleMs);
    const candidate = await db().bulkOrderRow.findFirst({
      where: {
        bulkOrderId,
        idempotencyKey: { not: null },
        id: { notIn: [...opts.skip] },
        OR: [...(opts.includePending ? [{ state: "pending" }] : []), { state: "placing", claimedAt: { lt: staleBefore } }],
      },
      orderBy: { rowNumber: "asc" },
    });
    if (!candidate) return null;
    assertRowMove(candidate.state, "placing");
    // Conditional on what was read: of two claimers, one wins and the other looks again.
    const { count } = await db().bulkOrderRow.updateMany({
      where: { id: candidate.id, state: candidate.state, claimedAt: candidate.claimedAt },
      data: { state: "placing", claimedAt: new Date(), attempts: { increment: 1 } },
    });
    if (count === 1) {
      opts.skip.add(candidate.id);
      return candidate;
    }
  }
  return null;
}

async function settleRow(row: BulkOrderRow, actor: Actor | null, staffId: string): Promise<void> {
  const outcome = await placeBulkRow(actor, staffId, row.idempotencyKey!, bulkRowOrderRequest(row));
  await recordOutcome(row.id, outcome);
}

async function recordOutcome(rowId: string, outcome: RowOutcome): Promise<void> {
  if (outcome.kind === "unknown") {
    // Stays `placing`: a later run (or the ledger's own resume job) settles it under the same key.
    await db().bulkOrderRow.updateMany({
      where: { id: rowId, state: "placing" },
      data: { errorCode: outcome.code, errorMessage: outcome.message, correlationId: outcome.correlationId ?? null },
    });
    return;
  }
  const to = outcome.kind === "placed" ? "placed" : "failed";
  assertRowMove("placing", to);
  const data =
    outcome.kind === "placed"
      ? {
          state: to,
          orderId: outcome.orderId,
          errorCode: null,
          errorMessage: null,
          correlationId: outcome.correlationId ?? null,
          settledAt: new Date(),
        }
      : {
          state: to,
          errorCode: outcome.code,
          errorMessage: outcome.message,
          correlationId: outcome.correlationId ?? null,
          settledAt: new Date(),
        };
  await db().bulkOrderRow.updateMany({ where: { id: rowId, state: "placing" }, data });
}

/** `placing` rows whose key the ledger already settled (this run's predecessor, or the resume job). */
async function settleFromLedger(bulkOrderId: string): Promise<void> {
  const placing = await db().bulkOrderRow.findMany({
    where: { bulkOrderId, state: "placing", idempotencyKey: { not: null } },
    select: { id: true, idempotencyKey: true },
  });
  if (placing.length === 0) return;
  const entries = await db().idempotencyKey.findMany({
    where: { key: { in: placing.map((r) => r.idempotencyKey!) }, state: { in: ["succeeded", "rejected"] } },
  });
  for (const entry of entries) {
    const row = placing.find((r) => r.idempotencyKey === entry.key)!;
    const outcome: RowOutcome =
      entry.state === "succeeded" && entry.resultId
        ? { kind: "placed", orderId: entry.resultId, correlationId: entry.correlationId ?? undefined }
        : {
            kind: "failed",
            code: entry.errorCode ?? "conflict",
            message: "The Issuing Service refused this order.",
            correlationId: entry.correlationId ?? undefined,
          };
    await recordOutcome(row.id, outcome);
  }
}

async function finishIfSettled(bulkOrderId: string): Promise<RunResult> {
  const [pending, placing, bulk] = await Promise.all([
    db().bulkOrderRow.count({ where: { bulkOrderId, state: "pending" } }),
    db().bulkOrderRow.count({ where: { bulkOrderId, state: "placing" } }),
    db().bulkOrder.findUniqueOrThrow({ where: { id: bulkOrderId }, select: { state: true, finishedAt: true } }),
  ]);
  const state = bulk.state as BulkState;
  if (pending + placing > 0) return { state, open: pending + placing, retryInSeconds: pending > 0 ? 1 : 30 };
  if (state === "running" || state === "confirmed") {
    // Done, and its failures told to the buyer as one message if none of its orders is still on its way.
    await db().$transaction(async (tx) => {
      if (await moveBulk(bulkOrderId, state, "done", { finishedAt: new Date() }, tx)) await noticeBulkFailures(tx, bulkOrderId);
    });
    return { state: "done", open: 0, retryInSeconds: null };
  }
  if (state === "cancelled" && !bulk.finishedAt)
    await db().bulkOrder.updateMany({ where: { id: bulkOrderId, finishedAt: null }, data: { finishedAt: new Date() } });
  return { state, open: 0, retryInSeconds: null };
}

async function moveBulk(
  id: string,
  from: BulkState,
  to: BulkState,
  data: { finishedAt?: Date },
  tx: Tx = db(),
): Promise<boolean> {
  assertBulkMove(from, to);
  const { count } = await tx.bulkOrder.updateMany({ where: { id, state: from }, data: { state: to, ...data } });
  return count === 1;
}

/** The uploader as an actor, if they may still place orders now (deny by default). */
async function uploaderActor(staffId: string): Promise<Actor | null> {
  const staff = await db().staff.findUnique({
    where: { id: staffId },
    select: { id: true, email: true, name: true, roles: true, active: true },
  });
  if (!staff?.active || !can(staff.roles, "orders.create")) return null;
  return { staffId: staff.id, email: staff.email, name: staff.name, roles: staff.roles };
}
