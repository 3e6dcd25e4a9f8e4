import { Link } from "@/components/ui/link";
import { PageHeader, Card } from "@/components/ui/page-header";

export default function ReconciliationDayNotFound() {
  return (
    <>
      <PageHeader title="Day not reconciled" />
      <Card>
        <p className="text-sm text-slate-700" data-testid="reconciliation-day-not-found">
          No reconciliation is kept for that day. The worker reconciles each UTC day at 00:05 UTC the next morning.
        </p>
        <Link href="/wallet/reconciliation" className="mt-3 inline-block text-sm font-medium text-brand-600 hover:underline">
          Back to all days
        </Link>
      </Card>
    </>
  );
}
