import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { db, type Prisma } from "@/lib/db/client";
import { toMinor } from "@/lib/money";
import type { Quote } from "@/lib/upstream/client";

export type QuotedItem = {
  productId: string;
  variantId: string | null;
  value: number | null;
  quantity: number;
  currency: string;
};

/**
 * Remembers a quote this app asked for: an order placed from it then has a known total
 * before it is sent (for the spend check), and, if it must wait for approval, an item to
 * price inline later (the quote itself expires in minutes).
 */
export async function recordIssuedQuote(actor: Actor, quote: Quote, item: QuotedItem): Promise<void> {
  await db().$transaction(async (tx) => {
    await tx.issuedQuote.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - 86_400_000) } } });
    await tx.issuedQuote.upsert({
      where: { id: quote.id },
      create: {
        id: quote.id,
        staffId: actor.staffId,
        item: item as Prisma.InputJsonValue,
        totalMinor: toMinor(quote.total, quote.currency),
        currency: quote.currency,
        expiresAt: new Date(quote.expiresAtUtc),
      },
      update: {},
    });
  });
}

export async function findIssuedQuote(id: string) {
  const row = await db().issuedQuote.findUnique({ where: { id } });
  return row ? { ...row, item: row.item as QuotedItem } : null;
}
