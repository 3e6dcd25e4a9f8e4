/**
 * Matching `wallet.credited` webhooks to deposits, as the contract says: "by amount and
 * time". A credit and a deposit are candidates when they have the same currency, exactly
 * the same amount (minor units), and their times agree within MATCH_WINDOW:
 * - the deposit says when it was credited (`creditedAtUtc`): the credit is within ±5 min
 *   of it (clock differences between the two records);
 * - otherwise the credit is from 5 min before to 60 min after the deposit's
 *   `occurredAtUtc`: a deposit is credited only after its confirmations (15 blocks, about
 *   a minute on BNB Smart Chain, longer when the chain or the service is slow).
 * Each deposit explains at most one credit: pairs are taken closest in time first. A credit
 * with more than one candidate says so; one without any is shown as unmatched.
 */
export const MATCH_WINDOW = { beforeMs: 5 * 60_000, afterMs: 60 * 60_000, aroundCreditedMs: 5 * 60_000 } as const;

export type CreditToMatch = { eventId: string; amountMinor: bigint; currency: string; occurredAt: Date };
export type DepositToMatch = { id: string; amountMinor: bigint; currency: string; occurredAt: Date; creditedAt: Date | null };
export type CreditMatch = { depositId: string | null; candidates: number; deltaMs: number | null };

export function isCandidate(credit: CreditToMatch, deposit: DepositToMatch): boolean {
  if (credit.currency !== deposit.currency || credit.amountMinor !== deposit.amountMinor) return false;
  const at = credit.occurredAt.getTime();
  if (deposit.creditedAt) return Math.abs(at - deposit.creditedAt.getTime()) <= MATCH_WINDOW.aroundCreditedMs;
  const delta = at - deposit.occurredAt.getTime();
  return delta >= -MATCH_WINDOW.beforeMs && delta <= MATCH_WINDOW.afterMs;
}

/** Credit event id → its deposit (or null), with how many deposits could have been it. */
export function matchCredits(credits: readonly CreditToMatch[], deposits: readonly DepositToMatch[]): Map<string, CreditMatch> {
  const pairs: { credit: string; deposit: string; distance: number; delta: number }[] = [];
  const candidates = new Map<string, number>();
  for (const credit of credits) {
    let count = 0;
    for (const deposit of deposits) {
      if (!isCandidate(credit, deposit)) continue;
      count += 1;
      const delta = credit.occurredAt.getTime() - (deposit.creditedAt ?? deposit.occurredAt).getTime();
      pairs.push({ credit: credit.eventId, deposit: deposit.id, distance: Math.abs(delta), delta });
    }
    candidates.set(credit.eventId, count);
  }
  pairs.sort((a, b) => a.distance - b.distance || a.deposit.localeCompare(b.deposit) || a.credit.localeCompare(b.credit));
  const result = new Map<string, CreditMatch>();
  const usedDeposits = new Set<string>();
  for (const pair of pairs) {
    if (result.has(pair.credit) || usedDeposits.has(pair.deposit)) continue;
    result.set(pair.credit, { depositId: pair.deposit, candidates: candidates.get(pair.credit) ?? 1, deltaMs: pair.delta });
    usedDeposits.add(pair.deposit);
  }
  for (const credit of credits) {
    if (!result.has(credit.eventId))
      result.set(credit.eventId, { depositId: null, candidates: candidates.get(credit.eventId) ?? 0, deltaMs: null });
  }
  return result;
}
