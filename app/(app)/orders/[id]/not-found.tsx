import Link from "next/link";
import { PageHeader, Card } from "@/components/ui/page-header";

export default function OrderNotFound() {
  return (
    <>
      <PageHeader title="Order not found" />
      <Card>
        <p className="text-sm text-slate-700" data-testid="order-not-found">
          There is no order with this id in the back-office. It may have been placed elsewhere and not synchronised yet, or the link is wrong.
        </p>
        <Link href="/orders" className="mt-3 inline-block text-sm font-medium text-brand-600 hover:underline">
          Back to all orders
        </Link>
      </Card>
    </>
  );
}
