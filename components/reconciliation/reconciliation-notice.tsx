import { Link } from "@/components/ui/link";
import { currentSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { formatMoney } from "@/lib/money";
import { latestDifferences } from "@/lib/reconciliation/list-reconciliations";
import { Notice } from "@/components/ui/notice";

/**
 * For the finance and admin home pages: the latest days whose wallet did not reconcile,
 * each linking to its detail, or nothing when every kept day reconciled (or the person may
 * not read the wallet). Reads only this app's table, never the upstream.
 */
export async function ReconciliationNotice({ take = 3 }: { take?: number } = {}) {
  const session = await currentSession();
  if (!session || !can(session.actor.roles, "wallet.read")) return null;
  const days = await latestDifferences(session.actor, take);
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
