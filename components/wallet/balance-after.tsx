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
      <ul className="space-y-1">
        {balance.items.map((b) => (
          <li key={b.currency} data-testid={`balance-after-${b.currency}`} className="flex flex-wrap gap-x-3">
            {b.available === null || b.after === null ? (
              <span className={b.short ? "font-medium text-red-800" : undefined}>The wallet holds no {b.currency}.</span>
            ) : (
              <>
                <span>
                  Available now <strong className="tabular-nums">{money(b.available, b.currency)}</strong>
                </span>
                <span>
                  after {what}{" "}
                  <strong className={`tabular-nums ${b.short ? "text-red-800" : ""}`} data-testid="balance-after-amount">
                    {money(b.after, b.currency)}
                  </strong>
                </span>
                {b.short ? <span className="font-medium text-red-800">Not enough: it would be refused now.</span> : null}
              </>
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
