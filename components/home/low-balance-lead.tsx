import { Link } from "@/components/ui/link";
import { utcTime } from "@/components/ui/utc-time";
import { formatMoney } from "@/lib/money";
import type { WalletBalance } from "@/lib/wallet/get-wallet-overview";

/**
 * Finance's home leads with a balance below its threshold: buyers' orders are refused once the
 * wallet runs dry, and finance are the ones who top it up. Spans the section's width, above
 * every other finance block.
 */
export function LowBalanceLead({ low, readAt }: { low: WalletBalance[]; readAt: string }) {
  return (
    <section
      className="rounded-lg bg-amber-50 p-5 ring-2 ring-inset ring-amber-400 lg:col-span-2"
      aria-labelledby="home-finance-low-balance-title"
      data-testid="home-finance-low-balance"
    >
      <h3 id="home-finance-low-balance-title" className="text-base font-semibold text-amber-950">
        Low wallet balance: top up before orders are refused
      </h3>
      <ul className="mt-2 space-y-1 text-sm text-amber-950">
        {low.map((b) => (
          <li key={b.currency} data-testid={`home-low-balance-${b.currency}`}>
            <strong className="tabular-nums">
              {b.currency} {formatMoney(b.availableMinor, b.currency)}
            </strong>{" "}
            available, below the {formatMoney(b.thresholdMinor ?? "0", b.currency)} threshold.
          </li>
        ))}
      </ul>
      <p className="mt-2 flex flex-wrap items-baseline gap-x-4 gap-y-1 text-sm">
        <Link href="/wallet" className="font-medium text-amber-950 underline">
          Top up: the deposit address is on the wallet page
        </Link>
        <span className="text-xs text-amber-900">As read at {utcTime(readAt, "second")}.</span>
      </p>
    </section>
  );
}
