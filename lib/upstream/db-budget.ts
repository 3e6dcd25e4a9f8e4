import "server-only";
import { db, sqlQuery } from "@/lib/db/client";
import type { Priority, RequestBudget } from "@/lib/upstream/client";

const WINDOW_MS = 60_000;

/**
 * One slot of the window, if the cap allows, in one statement (parallel callers cannot pass
 * the cap together). Every upstream call sends it first, so it goes through node-postgres
 * (`sqlQuery`, prepared once per connection) rather than Prisma's `$queryRaw`.
 */
const TAKE_SLOT = `
  INSERT INTO "RateBudget" ("windowStart", "used") VALUES ($1::timestamptz AT TIME ZONE 'UTC', 1)
  ON CONFLICT ("windowStart") DO UPDATE SET "used" = "RateBudget"."used" + 1
  WHERE "RateBudget"."used" < $2
  RETURNING "used"`;

/**
 * The workspace-wide request budget, shared by every app instance through one row per
 * fixed minute (aligned to the wall-clock minute, as the upstream's window is).
 * Interactive callers (a buyer ordering, a reveal) may use all but a small margin;
 * background work (catalog refresh, reconciliation) stops at three quarters, so people
 * never wait behind it. When the window is full, callers wait for the next one.
 */
export function createDbBudget(
  limit: number,
  /** Told once per caller that finds the window full (the admin's "had to wait" count). */
  onWait?: (priority: Priority) => void,
): RequestBudget & { usedThisMinute(): Promise<number>; caps: Record<Priority, number> } {
  const caps: Record<Priority, number> = {
    interactive: Math.max(1, limit - Math.max(1, Math.floor(limit * 0.02))),
    background: Math.max(1, Math.floor(limit * 0.75)),
  };
  return {
    caps,
    async acquire(priority, deadline) {
      for (let waited = false; ; waited = true) {
        const now = Date.now();
        const windowStart = new Date(now - (now % WINDOW_MS));
        const rows = await sqlQuery<{ used: number }>(TAKE_SLOT, [windowStart.toISOString(), caps[priority]]);
        if (rows.length > 0) {
          if (Math.random() < 0.01)
            void db()
              .rateBudget.deleteMany({ where: { windowStart: { lt: new Date(now - 3_600_000) } } })
              .catch(() => undefined);
          return;
        }
        if (!waited) onWait?.(priority);
        const wait = windowStart.getTime() + WINDOW_MS - now + Math.floor(Math.random() * 250);
        if (now + wait > deadline) throw new Error("budget exhausted before the deadline");
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    },
    async usedThisMinute() {
      const now = Date.now();
      const row = await db().rateBudget.findUnique({ where: { windowStart: new Date(now - (now % WINDOW_MS)) } });
      return row?.used ?? 0;
    },
  };
}
