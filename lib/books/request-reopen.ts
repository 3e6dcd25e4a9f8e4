import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput, singleLineText } from "@/lib/validation";
import { periodLabel, periodSchema } from "./periods";

/** `comment`: the decision panel's field, as every maker's reason is sent. */
const requestSchema = z.strictObject({
  comment: singleLineText().trim().min(3, "Say why the month must be reopened.").max(300, "Use at most 300 characters."),
});

/**
 * The maker's half of reopening a locked month: the month stays locked, waiting for a second
 * person (approveReopen). One conditional update, so of two requests one takes and the other is
 * told the month already waits.
 */
export async function requestReopen(actor: Actor, period: string, input: unknown, now = new Date()) {
  assertCan(actor, "books.close");
  const month = parseInput(z.object({ period: periodSchema }), { period }).period;
  const { comment: reason } = parseInput(requestSchema, input);
  return db().$transaction(async (tx) => {
    const taken = await tx.bookPeriod.updateMany({
      where: { period: month, state: "locked" },
      data: { state: "reopen_requested", reopenRequestedById: actor.staffId, reopenRequestedAt: now, reopenReason: reason },
    });
    if (taken.count === 0) {
      const row = await tx.bookPeriod.findUnique({ where: { period: month } });
      throw row
        ? new AppError("reopen_pending", `Reopening ${periodLabel(month)} already waits for a second person.`, { status: 409 })
        : new AppError("period_open", `${periodLabel(month)} is not locked.`, { status: 409 });
    }
    await recordAudit(tx, { action: "books.reopen_requested", actor, targetId: month, details: { reason } });
    return { period: month, state: "reopen_requested" as const };
  });
}
