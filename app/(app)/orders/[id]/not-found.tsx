import { Link } from "@/components/ui/link";
import { PageHeader, Card } from "@/components/ui/page-header";

export default function OrderNotFound() {
  return (
    <>
      <PageHeader title="Order not found" />
      <Card>
        <p className="text-sm text-slate-700" data-testid="order-not-found">
          There is no such order in this workspace: neither this back-office nor the Issuing Service knows this id. Check the id,
          or search by the client reference.
        </p>
        <Link href="/orders" className="mt-3 inline-block text-sm font-medium text-brand-600 hover:underline">
          Back to all orders
        </Link>
      </Card>
    </>
  );
}
