import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db, Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getSettings } from "@/lib/settings/get-settings";
import { parseInput } from "@/lib/validation";
import { bookingRange } from "./booking-range";
import { periodEnd, periodLabel, periodSchema, periodStart } from "./periods";
import { remaindersSql } from "./unbooked-movements";

const lockSchema = z.strictObject({});

/** One lock or reopening at a time across processes: each reads what the others book. */
export const BOOKS_LOCK = Prisma.sql`SELECT pg_advisory_xact_lock(hashtext('books.periods'))`;

/**
 * Finance closes a month: what its journal books now (its own movements and the late ones of the
 * locked months before it) is copied into BookEntry, so its export never changes, and the period
 * row and the audit entry commit with it. Only a month that has ended; a second lock of the same
 * month (at the same time or later) is refused.
 */
export async function lockPeriod(actor: Actor, period: string, input: unknown, now = new Date()) {
  assertCan(actor, "books.close");
  parseInput(lockSchema, input);
  const month = parseInput(z.object({ period: periodSchema }), { period }).period;
  if (periodEnd(month) > now)
    throw new AppError("period_not_ended", `${periodLabel(month)} has not ended yet: lock it once it is over.`, { status: 409 });
  const { bookAccounts } = await getSettings();
  const locked = await db().$transaction(
    async (tx) => {
      await tx.$executeRaw(BOOKS_LOCK);
      if (await tx.bookPeriod.findUnique({ where: { period: month } }))
        throw new AppError("period_locked", `${periodLabel(month)} is already locked.`, { status: 409 });
      await tx.bookPeriod.create({
        data: { period: month, state: "locked", lockedById: actor.staffId, lockedAt: now, accounts: bookAccounts },
      });
      const range = await bookingRange(tx, month);
      const booked = await tx.$executeRaw(Prisma.sql`
        INSERT INTO "BookEntry" ("period", "sourceId", "kind", "currency", "at", "deltaMinor", "feeMinor", "reference", "late")
        SELECT ${month}, u."sourceId", u."kind", u."currency", u."at", u."deltaMinor", u."feeMinor", u."reference",
               u."at" < ${periodStart(month)}
        FROM (${remaindersSql({ from: range.from, to: range.to, after: null })}) u
        WHERE u."deltaMinor" <> 0`);
      const late = await tx.bookEntry.count({ where: { period: month, late: true } });
      await recordAudit(tx, {
        action: "books.period_locked",
        actor,
        targetId: month,
        details: { movements: booked, late },
      });
      return { period: month, movements: booked, late };
    },
    { timeout: 120_000 },
  );
  // A month's entries arrive in one statement: without fresh statistics (the embedded database
  // has no autovacuum; PostgreSQL's comes later) the next export's lookups scanned them all.
  await db().$executeRaw`ANALYZE "BookEntry"`;
  return locked;
}
