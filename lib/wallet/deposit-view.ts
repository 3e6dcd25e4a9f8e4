import { toMinor } from "@/lib/money";
import type { Deposit } from "@/lib/upstream/client";

/** A deposit as pages and the API show it: money in minor units, the chain or the other rail's reference. */
export type DepositView = {
  id: string;
  rail: string | null;
  network: string | null;
  transactionHash: string | null;
  reference: string | null;
  amountMinor: string;
  currency: string;
  confirmations: number | null;
  occurredAt: string;
  creditedAt: string | null;
};

export function toDepositView(d: Deposit): DepositView {
  return {
    id: d.id,
    rail: d.rail ?? null,
    network: d.network ?? null,
    transactionHash: d.transactionHash,
    reference: d.reference ?? null,
    amountMinor: toMinor(d.amount, d.currency).toString(),
    currency: d.currency,
    confirmations: d.confirmations,
    occurredAt: d.occurredAtUtc,
    creditedAt: d.creditedAtUtc ?? null,
  };
}
