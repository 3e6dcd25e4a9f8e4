import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { BOOKS_LOCK } from "./lock-period";
import { periodLabel, periodSchema } from "./periods";

const approveSchema = z.strictObject({});

/**
 * The checker's half: a second person holding `books.close` reopens the month, its booked
 * entries dropped (its journal is live again, and what later months booked late stays theirs).
 * The maker can never be the checker: the conditional delete excludes them, and their attempt
 * is audited and refused.
 */
export async function approveReopen(actor: Actor, period: string, input: unknown) {
  assertCan(actor, "books.close");
  parseInput(approveSchema, input);
  const month = parseInput(z.object({ period: periodSchema }), { period }).period;
  const outcome = await db().$transaction(async (tx) => {
    await tx.$executeRaw(BOOKS_LOCK);
    const row = await tx.bookPeriod.findUnique({ where: { period: month } });
    if (!row || row.state !== "reopen_requested")
      throw new AppError("not_pending", `Nobody has asked to reopen ${periodLabel(month)}.`, { status: 409 });
    if (row.reopenRequestedById === actor.staffId) {
      // Returned, not thrown: the refusal's audit row must commit.
      await recordAudit(tx, { action: "books.self_approval_refused", actor, targetId: month });
      return new AppError("own_request", `You asked to reopen ${periodLabel(month)}, so someone else must approve it.`, {
        status: 403,
      });
    }
    const gone = await tx.bookPeriod.deleteMany({
      where: { period: month, state: "reopen_requested", reopenRequestedById: { not: actor.staffId } },
    });
    if (gone.count !== 1) throw new AppError("not_pending", `Nobody has asked to reopen ${periodLabel(month)}.`, { status: 409 });
    await recordAudit(tx, {
      action: "books.period_reopened",
      actor,
      targetId: month,
      details: { reason: row.reopenReason ?? "" },
    });
    return { period: month, state: "open" as const };
  });
  if (outcome instanceof AppError) throw outcome;
  return outcome;
}
