import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { streamCsv } from "@/lib/csv-stream";
import { db } from "@/lib/db/client";
import { getSettings } from "@/lib/settings/get-settings";
import { bookAccountsSchema } from "./accounts";
import { parseInput } from "@/lib/validation";
import { JOURNAL_FORMATS, JOURNAL_FORMAT_NAMES, type JournalFormat } from "./journal-formats";
import { journalLines } from "./journal-lines";
import { periodSchema } from "./periods";
import { bookingDay, readJournalBatch } from "./read-journal";
import type { Cursor } from "./unbooked-movements";

export const journalQuerySchema = z.strictObject({
  period: periodSchema,
  format: z.enum(JOURNAL_FORMAT_NAMES as [JournalFormat, ...JournalFormat[]]).default("plain"),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "Use a three-letter currency code.")
    .optional()
    .or(z.literal("").transform(() => undefined)),
});
export type JournalQuery = z.infer<typeof journalQuerySchema>;

const BATCH = 2_000;

/**
 * A month's journal as CSV in one of the three formats, streamed a batch of movements at a time
 * (flat memory however many orders the month had). Whether the month is locked is read once, so
 * one download is all of the locked journal or all of the open one.
 */
export async function exportJournal(
  actor: Actor,
  input: unknown,
): Promise<{ stream: ReadableStream<Uint8Array>; name: string; locked: boolean }> {
  assertCan(actor, "books.read");
  const query = parseInput(journalQuerySchema, input);
  const [locked, settings] = await Promise.all([
    db().bookPeriod.findUnique({ where: { period: query.period }, select: { accounts: true } }),
    getSettings(),
  ]);
  const format = JOURNAL_FORMATS[query.format];
  // A locked month keeps the accounts it was locked with; an open one follows Settings.
  const stored = locked ? bookAccountsSchema.safeParse(locked.accounts) : null;
  const accounts = stored?.success ? stored.data : settings.bookAccounts;
  const stream = await streamCsv<Cursor>(format.header, async (after) => {
    const batch = await readJournalBatch(db(), {
      period: query.period,
      locked: locked !== null,
      currency: query.currency,
      after,
      limit: BATCH,
    });
    const rows = batch.movements.flatMap((m) =>
      journalLines(m, bookingDay(m, query.period)).map((line) => format.cells(line, accounts)),
    );
    return { rows, next: batch.next };
  });
  const name = `journal-${query.period}${query.currency ? `-${query.currency}` : ""}-${query.format}`;
  return { stream, name, locked: locked !== null };
}
