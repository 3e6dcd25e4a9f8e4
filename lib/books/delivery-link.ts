import "server-only";
import { z } from "zod";
import { deriveKey } from "@/lib/crypto/derive-key";
import { openToken, sealToken } from "@/lib/crypto/sealed-token";
import { getEnv } from "@/lib/env";
import { JOURNAL_FORMAT_NAMES, type JournalFormat } from "./journal-formats";
import { periodSchema } from "./periods";

/** How long an emailed journal link works. */
export const JOURNAL_LINK_DAYS = 7;

const linkSchema = z.object({
  period: periodSchema,
  format: z.enum(JOURNAL_FORMAT_NAMES as [JournalFormat, ...JournalFormat[]]),
});
export type JournalLink = z.infer<typeof linkSchema>;

const key = () => deriveKey(getEnv().AUTH_SECRET, "journalLink");

/**
 * The emailed link's token: which month and format, sealed (nobody can make one for another
 * month or stretch its expiry) and expiring. It grants nothing by itself: the page and the
 * download it leads to need a session that may read the books.
 */
export async function sealJournalLink(link: JournalLink): Promise<string> {
  return sealToken(link, key(), JOURNAL_LINK_DAYS * 86_400);
}

/** What the token names, or null (expired, tampered, another secret). */
export async function openJournalLink(token: string): Promise<JournalLink | null> {
  const payload = await openToken(token, key());
  const parsed = linkSchema.safeParse(payload);
  return parsed.success ? parsed.data : null;
}
