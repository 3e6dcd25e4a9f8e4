import { Link } from "@/components/ui/link";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { formatMoney } from "@/lib/money";
import { latestDifferences } from "@/lib/reconciliation/list-reconciliations";
import type { ReconciliationView } from "@/lib/reconciliation/reconciliation-view";
import { Notice } from "@/components/ui/notice";

/** The days for the notice: the latest that did not reconcile, none for a person who may not read the wallet. */
export function loadReconciliationNotice(actor: Actor, take = 3): Promise<ReconciliationView[]> {
  return can(actor.roles, "wallet.read") ? latestDifferences(actor, take) : Promise.resolve([]);
}

/**
 * For the wallet and the finance and admin home pages: the latest days whose wallet did not
 * reconcile, each linking to its detail, or nothing when every kept day reconciled. Reads only
 * this app's table, never the upstream.
 */
export async function ReconciliationNotice({ days: loading }: { days: ReturnType<typeof loadReconciliationNotice> }) {
  const days = await loading;
  if (!days.length) return null;
  return (
    <Notice tone="warning" title="The wallet did not reconcile" testId="reconciliation-notice">
      <ul className="space-y-0.5">
        {days.map((d) => (
          <li key={`${d.day}-${d.currency}`}>
            <Link href={`/wallet/reconciliation/${d.day}`} className="font-medium underline">
              {d.day} {d.currency}
            </Link>
            : a difference of {formatMoney(d.differenceMinor ?? "0", d.currency)}
          </li>
        ))}
      </ul>
      <Link href="/wallet/reconciliation?status=difference" className="mt-1 inline-block underline">
        Every day with a difference
      </Link>
    </Notice>
  );
}
