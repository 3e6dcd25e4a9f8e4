import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { pageSizeSchema, parseInput } from "@/lib/validation";
import { spentBy, upstream } from "@/lib/upstream/service";
import { toDepositView, type DepositView } from "./deposit-view";
import { MATCH_WINDOW, matchCredits } from "./match-credits";

export const creditQuerySchema = z.strictObject({
  limit: pageSizeSchema(100, 20),
});

export type CreditView = {
  eventId: string;
  amountMinor: string;
  currency: string;
  /** The balance right after the credit, as the webhook reported it. */
  availableBalanceMinor: string | null;
  occurredAt: string;
  deposit: DepositView | null;
  /** Deposits that fit by amount and time; more than one means the closest was taken. */
  candidates: number;
  /** Why no deposit is shown: none fits, or the fitting one may be older than the history searched. */
  unmatchedReason: "no_deposit_fits" | "beyond_searched_history" | null;
};

/** Deposit pages read to match credits: at most this many (100 each), newest first. */
const MAX_DEPOSIT_PAGES = 5;

/**
 * The most recent `wallet.credited` webhooks this app recorded, each with the deposit it
 * matches (lib/wallet/match-credits.ts says how). Deposits are read newest first until
 * they are older than the oldest credit's window, or MAX_DEPOSIT_PAGES pages.
 */
export async function listCredits(actor: Actor, input: unknown): Promise<{ items: CreditView[]; readAt: string }> {
  assertCan(actor, "wallet.read");
  const { limit } = parseInput(creditQuerySchema, input ?? {});
  const credits = await db().walletCredit.findMany({ orderBy: [{ occurredAt: "desc" }, { eventId: "desc" }], take: limit });
  const readAt = new Date().toISOString();
  if (credits.length === 0) return { items: [], readAt };

  const oldest = credits[credits.length - 1]!.occurredAt.getTime();
  const bound = oldest - MATCH_WINDOW.afterMs - MATCH_WINDOW.aroundCreditedMs;
  const deposits: DepositView[] = [];
  let cursor: string | undefined;
  let complete = false;
  for (let page = 0; page < MAX_DEPOSIT_PAGES; page++) {
    const { data } = await upstream().listDeposits({ limit: 100, cursor }, { priority: "interactive", by: spentBy(actor) });
    deposits.push(...data.items.map(toDepositView));
    const last = data.items[data.items.length - 1];
    if (!data.hasMore || !data.nextCursor || !last || Date.parse(last.occurredAtUtc) < bound) {
      complete = true;
      break;
    }
    cursor = data.nextCursor;
  }
  const searchedBackTo = complete ? null : Date.parse(deposits[deposits.length - 1]?.occurredAt ?? readAt);

  const matches = matchCredits(
    credits.map((c) => ({ eventId: c.eventId, amountMinor: c.amountMinor, currency: c.currency, occurredAt: c.occurredAt })),
    deposits.map((d) => ({
      id: d.id,
      amountMinor: BigInt(d.amountMinor),
      currency: d.currency,
      occurredAt: new Date(d.occurredAt),
      creditedAt: d.creditedAt ? new Date(d.creditedAt) : null,
    })),
  );
  const byId = new Map(deposits.map((d) => [d.id, d]));
  const items = credits.map((c): CreditView => {
    const match = matches.get(c.eventId)!;
    const deposit = match.depositId ? (byId.get(match.depositId) ?? null) : null;
    const beyond = searchedBackTo !== null && c.occurredAt.getTime() - MATCH_WINDOW.afterMs < searchedBackTo;
    return {
      eventId: c.eventId,
      amountMinor: c.amountMinor.toString(),
      currency: c.currency,
      availableBalanceMinor: c.availableBalanceMinor?.toString() ?? null,
      occurredAt: c.occurredAt.toISOString(),
      deposit,
      candidates: match.candidates,
      unmatchedReason: deposit ? null : beyond ? "beyond_searched_history" : "no_deposit_fits",
    };
  });
  return { items, readAt };
}
