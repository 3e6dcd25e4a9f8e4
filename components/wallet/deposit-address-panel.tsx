import type { DepositAddressView } from "@/lib/wallet/deposit-address";
import { Notice } from "@/components/ui/notice";
import { CopyButton } from "@/components/ui/copy-button";
import { QrCode } from "./qr-code";
import { RequestAddressButton } from "./request-address-button";
import { utcTime } from "@/components/ui/utc-time";

export const NETWORK_WARNING =
  "Only BSC-USD on BNB Smart Chain is accepted. Funds sent on another network or in another token are lost.";

/** The permanent deposit address with its QR code and the network warning; or the way to request it. */
export function DepositAddressPanel({ address, canRequest }: { address: DepositAddressView | null; canRequest: boolean }) {
  if (!address) {
    return (
      <div className="space-y-3" data-testid="deposit-address-missing">
        <p className="text-sm text-slate-600">
          No deposit address has been requested for this workspace yet. It is permanent once requested.
        </p>
        {canRequest ? <RequestAddressButton /> : <p className="text-sm text-slate-600">Finance staff can request it.</p>}
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-start gap-6" data-testid="deposit-address">
      <QrCode value={address.address} label={`QR code of the deposit address ${address.address}`} />
      <div className="min-w-0 flex-1 space-y-3">
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500">
            {address.asset} on {address.network === "BSC" ? "BNB Smart Chain" : address.network}
          </p>
          <p className="mt-1 break-all font-mono text-base text-slate-900" data-testid="deposit-address-value">
            {address.address}
          </p>
        </div>
        <CopyButton value={address.address} label="Copy address" />
        <Notice tone="warning" testId="deposit-address-warning">
          <strong>{NETWORK_WARNING}</strong>
        </Notice>
        <p className="text-xs text-slate-500">
          {address.requiredConfirmations ? `Credited after ${address.requiredConfirmations} confirmations. ` : ""}Address created{" "}
          <time dateTime={address.createdAt}>{utcTime(address.createdAt)}</time>.
        </p>
      </div>
    </div>
  );
}
