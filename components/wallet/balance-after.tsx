import { formatMoney, parseMinor } from "@/lib/money";
import type { BalancesAfter } from "@/lib/wallet/balance-after";
import { utcTime } from "@/components/ui/utc-time";

const money = (amount: string, currency: string) => formatMoney(parseMinor(amount, currency), currency);

/**
 * Beside a decision that takes money out of the wallet: what is available now and what would
 * be left after it, with the time of the read (to the second) and whether the wallet moved since.
 */
export function BalanceAfterFacts({ balance, what }: { balance: BalancesAfter; what: string }) {
  if (balance.kind === "unavailable")
    return (
      <p className="text-sm text-slate-700" data-testid="balance-after-unavailable">
        The wallet&apos;s balance could not be read just now, so the balance after {what} is not known. The wallet page reads it
        again.
      </p>
    );
  return (
    <div className="space-y-1 text-sm text-slate-700">
      <ul className="space-y-2">
        {balance.items.map((b) => (
          <li key={b.currency} data-testid={`balance-after-${b.currency}`}>
            {b.available === null || b.after === null ? (
              <span className={b.short ? "font-medium text-red-800" : undefined}>The wallet holds no {b.currency}.</span>
            ) : (
              <dl className="grid max-w-xs grid-cols-[1fr_auto] gap-x-4">
                <dt>Available now</dt>
                <dd className="text-right font-semibold tabular-nums">{money(b.available, b.currency)}</dd>
                <dt>After {what}</dt>
                <dd
                  className={`text-right font-semibold tabular-nums ${b.short ? "text-red-800" : ""}`}
                  data-testid="balance-after-amount"
                >
                  {money(b.after, b.currency)}
                </dd>
                {b.short ? <dd className="col-span-2 font-medium text-red-800">Not enough: it would be refused now.</dd> : null}
              </dl>
            )}
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-500" data-testid="balance-after-read-at">
        As read at {utcTime(balance.readAt, "second")}
        {balance.updating ? "; updating: the wallet moved after this read." : "."}
      </p>
    </div>
  );
}
