import "server-only";
import { db } from "@/lib/db/client";
import { orderSyncConfig } from "@/lib/env";
import { logger } from "@/lib/log";
import { spentByJob, upstream, upstreamBudget } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { noticeImportFinished } from "./import-notices";
import { mirrorOrders } from "./mirror";
import { importMayUseMinute } from "./import-pacing";
import { refreshOrderStatistics } from "./refresh-order-statistics";
import { ensureSyncState, minuteOf, msToNextMinute } from "./sync-state";

export const IMPORT_PAGE_SIZE = 100;

export type ImportStep = { state: "running" | "paused" | "done"; pageRead: boolean; nextInMs: number | null };

/**
 * One step of the history import: reads the next page (newest first) of GET /orders and
 * mirrors it, then moves the stored cursor, so a restart resumes at the first page not
 * yet recorded (a page read but not recorded is read again; mirroring it twice is harmless).
 *
 * It never makes a person wait: it asks the shared budget at background priority (which
 * stops at three quarters of the limit, leaving the rest to people), spends at most
 * ORDERS_IMPORT_CALLS_PER_MINUTE of it, spaced evenly, leaves a minute that others already
 * keep busy to them (./import-pacing.ts), and when the budget is
 * taken it gives up the turn rather than queue, and tries again next minute. `nextInMs` says when
 * the worker should run the next step (null: nothing left, or paused).
 */
export async function importOrdersPage(): Promise<ImportStep> {
  const { importCallsPerMinute } = orderSyncConfig();
  const row = await ensureSyncState();
  if (row.importState !== "running") return { state: row.importState as ImportStep["state"], pageRead: false, nextInMs: null };

  const now = Date.now();
  const window = minuteOf(now);
  const callsThisMinute = row.callsWindowStart?.getTime() === window.getTime() ? row.callsInWindow : 0;
  // Its own rate spent, or a busy minute (people browsing, a bulk order) left to them: the next minute.
  const budget = upstreamBudget();
  const [usedThisMinute, caps] = await Promise.all([budget.usedThisMinute(), budget.caps()]);
  const mayRead = importMayUseMinute({
    usedThisMinute,
    importCallsThisMinute: callsThisMinute,
    backgroundCap: caps.background,
    importCallsPerMinute,
  });
  if (!mayRead) return { state: "running", pageRead: false, nextInMs: msToNextMinute(now) };

  let page;
  try {
    // A short deadline: waiting for the next window is done by the queue, not by holding a worker.
    page = (
      await upstream().listOrders(
        { limit: IMPORT_PAGE_SIZE, cursor: row.importCursor ?? undefined },
        { priority: "background", deadlineMs: 15_000, by: spentByJob("orders-import") },
      )
    ).data;
  } catch (error) {
    const code = upstreamFailure(error)?.code ?? "error";
    await db().orderSync.update({ where: { source: row.source }, data: { lastError: `import: ${code}` } });
    logger.warn("order import page not read; trying again later", { code });
    return { state: "running", pageRead: false, nextInMs: code === "budget_exhausted" ? msToNextMinute(Date.now()) : 15_000 };
  }

  await mirrorOrders(page.items);
  const newest = page.items[0] ? new Date(page.items[0].createdAtUtc) : null;
  const done = !page.hasMore || !page.nextCursor;
  // Recorded only if nobody moved the cursor meanwhile (a second worker, an admin's restart).
  const recorded = await db().$transaction(async (tx) => {
    const moved = await tx.orderSync.updateMany({
      where: { source: row.source, importCursor: row.importCursor, importState: { in: ["running", "paused"] } },
      data: {
        importCursor: done ? null : page.nextCursor,
        importPages: { increment: 1 },
        importOrders: { increment: page.items.length },
        importLastPageAt: new Date(),
        callsWindowStart: window,
        callsInWindow: callsThisMinute + 1,
        lastError: null,
        ...(done ? { importState: "done", importFinishedAt: new Date() } : {}),
      },
    });
    // Admins hear that it finished with the write that finishes it.
    if (done && moved.count === 1) await noticeImportFinished(tx, row, row.importOrders + page.items.length);
    return moved;
  });
  // The first page holds the newest order: from here on the safety-net sync covers what comes after.
  if (recorded.count === 1 && row.importCursor === null) {
    const mark = newest ?? new Date(now);
    await db().orderSync.updateMany({
      where: { source: row.source, OR: [{ highWaterMark: null }, { highWaterMark: { lt: mark } }] },
      data: { highWaterMark: mark },
    });
  }
  // The walk (a first import, or every order read again) wrote up to every order just now.
  if (done && recorded.count === 1) await refreshOrderStatistics();
  const state = done
    ? "done"
    : ((await db().orderSync.findUnique({ where: { source: row.source }, select: { importState: true } }))
        ?.importState as ImportStep["state"]);
  return { state, pageRead: true, nextInMs: state === "running" ? Math.ceil(60_000 / importCallsPerMinute) : null };
}
