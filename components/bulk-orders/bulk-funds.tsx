"use client";

import { useQueries } from "@tanstack/react-query";
import { callApi } from "@/components/api-client";
import { Notice } from "@/components/ui/notice";
import type { MoneyTotal } from "@/lib/bulk-orders/bulk-view";
import { formatMoney } from "@/lib/money";

/**
 * The wallet before and after the whole file, per currency, beside the one confirmation:
 * the same "balance after this order" a single large order shows. If the wallet does not
 * cover the total, the orders placed after the money runs out fail (nothing is bought for
 * them); the buyer is told before confirming.
 */
export function BulkFunds({ totals }: { totals: MoneyTotal[] }) {
  const funds = useQueries({
    queries: totals.map((t) => ({
      queryKey: ["funds", t.currency],
      queryFn: async () => {
        const result = await callApi<{ availableMinor: string }>(
          "GET",
          `/api/orders/funds?currency=${encodeURIComponent(t.currency)}`,
        );
        if (!result.ok) throw new Error(result.problem.detail);
        return BigInt(result.data.availableMinor);
      },
      staleTime: 30_000,
    })),
  });
  const rows = totals.map((t, i) => ({ ...t, available: funds[i]?.data ?? null, failed: funds[i]?.isError ?? false }));
  const short = rows.filter((r) => r.available !== null && r.available < BigInt(r.totalMinor));
  return (
    <div className="mt-4 space-y-3" data-testid="bulk-funds">
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {rows.map((r) => (
          <div key={r.currency} className="contents">
            <dt className="text-slate-500">Wallet ({r.currency}) after these orders</dt>
            <dd className="tabular-nums text-slate-900" data-testid={`bulk-available-after-${r.currency}`}>
              {r.available === null
                ? r.failed
                  ? "the balance could not be read just now"
                  : "reading the balance…"
                : `${formatMoney(r.available - BigInt(r.totalMinor), r.currency)} (now ${formatMoney(r.available, r.currency)})`}
            </dd>
          </div>
        ))}
      </dl>
      {short.length ? (
        <Notice tone="warning" title="The wallet does not cover this file" testId="bulk-funds-short">
          {short.map((r) => `${r.currency}: ${formatMoney(BigInt(r.totalMinor) - r.available!, r.currency)} short`).join("; ")}.
          The orders placed after the money runs out will fail and buy nothing. Ask finance to top up the wallet, or confirm to
          place what it covers.
        </Notice>
      ) : null}
    </div>
  );
}
