import { z } from "zod";
import { JOURNAL_FORMATS, JOURNAL_FORMAT_NAMES, type JournalFormat } from "@/lib/books/journal-formats";
import { periodLabel, periodSchema } from "@/lib/books/periods";
import { defineKind, rolesWith } from "./define-kind";

/**
 * A month's journal is ready for the people finance chose (lib/books/deliver-journal.ts): a link
 * to it, sealed and expiring, that still needs a sign-in. Never the file, never a code or a key.
 */
export const booksJournalReady = defineKind({
  label: "The monthly journal for the accounts is ready",
  roles: rolesWith("books.read"),
  to: "named",
  payload: z.object({
    period: periodSchema,
    format: z.enum(JOURNAL_FORMAT_NAMES as [JournalFormat, ...JournalFormat[]]),
    token: z.string().min(1),
    expiresAt: z.iso.datetime(),
    recipientIds: z.array(z.string()),
  }),
  eventKey: ({ period }) => `books.journal_ready:${period}`,
  audience: ({ recipientIds }) => ({ staffIds: recipientIds }),
  compose: ({ period, format, token, expiresAt }) => ({
    title: `The journal for ${periodLabel(period)} is ready (${JOURNAL_FORMATS[format].label})`,
    body: `Sign in to download it. The link works until ${new Date(expiresAt).toUTCString().slice(5, 22)} UTC.`,
    link: `/reports/journal/delivered?t=${encodeURIComponent(token)}`,
  }),
});
