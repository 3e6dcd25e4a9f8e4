import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { periodOf, previousPeriod } from "./periods";

export type PeriodView = {
  period: string;
  state: "open" | "locked" | "reopen_requested";
  /** Ended: it may be locked. */
  ended: boolean;
  lockedBy: string | null;
  lockedAt: string | null;
  reopenRequestedBy: string | null;
  reopenReason: string | null;
  actions: { lock: boolean; requestReopen: boolean; approveReopen: boolean };
};

/** The current month and the eleven before it, and every locked month older than that, newest first. */
export async function listPeriods(actor: Actor, now = new Date()): Promise<PeriodView[]> {
  assertCan(actor, "books.read");
  const rows = await db().bookPeriod.findMany({ orderBy: { period: "desc" } });
  const months = new Set(rows.map((r) => r.period));
  let month = periodOf(now);
  for (let i = 0; i < 12; i++, month = previousPeriod(month)) months.add(month);
  const staffIds = rows.flatMap((r) => [r.lockedById, r.reopenRequestedById ?? r.lockedById]);
  const names = new Map(
    (await db().staff.findMany({ where: { id: { in: staffIds } }, select: { id: true, name: true } })).map((s) => [s.id, s.name]),
  );
  const byPeriod = new Map(rows.map((r) => [r.period, r]));
  const current = periodOf(now);
  const closes = can(actor.roles, "books.close");
  return [...months]
    .sort((a, b) => b.localeCompare(a))
    .map((period) => {
      const row = byPeriod.get(period);
      const state = (row?.state ?? "open") as PeriodView["state"];
      const ended = period < current;
      return {
        period,
        state,
        ended,
        lockedBy: row ? (names.get(row.lockedById) ?? null) : null,
        lockedAt: row ? row.lockedAt.toISOString() : null,
        reopenRequestedBy: row?.reopenRequestedById ? (names.get(row.reopenRequestedById) ?? null) : null,
        reopenReason: row?.reopenReason ?? null,
        actions: {
          lock: closes && state === "open" && ended,
          requestReopen: closes && state === "locked",
          approveReopen: closes && state === "reopen_requested" && row?.reopenRequestedById !== actor.staffId,
        },
      };
    });
}
