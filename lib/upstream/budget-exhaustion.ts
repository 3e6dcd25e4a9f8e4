import "server-only";
import { db } from "@/lib/db/client";
import { notify } from "@/lib/notifications/notify";
import { minuteOf } from "./call-counts";
import { upstreamBudget } from "./service";

/** Whole minutes in a row the budget must have been used up before admins are told. */
export const EXHAUSTED_MINUTES = 3;
const LOOK_BACK_MINUTES = 60;

/**
 * Admins hear when the shared upstream budget was used up (people's calls turned away: the
 * minute's count at the cap of people's reads) in EXHAUSTED_MINUTES whole minutes in a row.
 * Observed by the worker each minute (lib/upstream/jobs.ts) from the budget's own rows; the
 * notification is the only write, keyed by the minute the run began, so one run of exhausted
 * minutes notifies once (a run longer than an hour, once an hour). Returns the run's length.
 */
export async function checkBudgetExhaustion(now = new Date()): Promise<number> {
  const cap = (await upstreamBudget().caps()).interactive;
  const last = minuteOf(now.getTime()).getTime() - 60_000;
  const rows = await db().rateBudget.findMany({
    where: { windowStart: { gte: new Date(last - (LOOK_BACK_MINUTES - 1) * 60_000), lte: new Date(last) } },
  });
  const used = new Map(rows.map((r) => [r.windowStart.getTime(), r.used]));
  let run = 0;
  while (run < LOOK_BACK_MINUTES && (used.get(last - run * 60_000) ?? 0) >= cap) run += 1;
  if (run < EXHAUSTED_MINUTES) return run;
  const began = new Date(last - (run - 1) * 60_000);
  await db().$transaction((tx) => notify(tx, "upstream.budget_exhausted", { began, minutes: run, cap }));
  return run;
}
