import { formatMoney } from "@/lib/money";
import type { WalletTie } from "@/lib/reports/tie-to-wallet";
import { Notice } from "@/components/ui/notice";

/**
 * How a currency's net spend ties to the wallet's movements of the orders in the period: to the
 * cent, or to the cent once money that came back outside the period is named, or not (a
 * difference the records do not explain, as the reconciliation page shows one).
 */
export function WalletTieLine({ tie, netMinor, from, to }: { tie: WalletTie; netMinor: bigint; from: string; to: string }) {
  const money = (minor: bigint) => formatMoney(minor, tie.currency);
  const out = -tie.walletMinor;
  if (tie.unexplainedMinor !== 0n)
    return (
      <div className="mt-4">
        <Notice tone="warning" title="Does not tie to the wallet's movements" testId={`report-${tie.currency}-tie`}>
          The wallet&apos;s movements for these orders come to {money(out)} out; the report&apos;s net spend is {money(netMinor)}.{" "}
          {money(tie.unexplainedMinor)} of the difference is not explained by money that came back outside the period. Check the
          wallet reconciliation for the days of this period.
        </Notice>
      </div>
    );
  const outside = tie.returnedLaterMinor !== 0n || tie.returnedEarlierMinor !== 0n;
  return (
    <p className="mt-4 text-sm text-emerald-800" data-testid={`report-${tie.currency}-tie`}>
      <span className="font-medium">Ties to the wallet&apos;s movements: {money(out)}</span> left the wallet for orders from{" "}
      {from} to {to}
      {outside ? (
        <span className="text-slate-700">
          {" "}
          ({money(netMinor)} net spend
          {tie.returnedLaterMinor !== 0n
            ? `, plus ${money(tie.returnedLaterMinor)} of failed or refunded orders that came back after ${to}`
            : ""}
          {tie.returnedEarlierMinor !== 0n
            ? `, less ${money(tie.returnedEarlierMinor)} that came back in the period for orders recorded before ${from}`
            : ""}
          )
        </span>
      ) : null}
      .
    </p>
  );
}
