import { Link } from "@/components/ui/link";
import { formatMoney } from "@/lib/money";
import type { LowBalanceWarning } from "@/lib/wallet/get-low-balance-warning";
import { utcTime } from "@/components/ui/utc-time";

/** On every page for staff who can order: which currencies are below their threshold. */
export function LowBalanceBanner({ warning, canReadWallet }: { warning: LowBalanceWarning; canReadWallet: boolean }) {
  return (
    <div
      role="status"
      className="mb-6 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-300"
      data-testid="low-balance-warning"
    >
      <p className="font-medium">Low wallet balance: orders may be refused.</p>
      <ul className="mt-1">
        {warning.low.map((l) => (
          <li key={l.currency}>
            {l.currency} available {formatMoney(l.availableMinor, l.currency)}, below the{" "}
            {formatMoney(l.thresholdMinor, l.currency)} threshold.
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs opacity-80">
        As read at {utcTime(warning.readAt)}.{" "}
        {canReadWallet ? (
          <Link href="/wallet" className="font-medium underline">
            Open the wallet
          </Link>
        ) : (
          "Finance can top the wallet up."
        )}
      </p>
    </div>
  );
}
