import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { NotAvailable } from "@/components/ui/not-available";

export const metadata: Metadata = { title: "Orders" };

export default async function Page() {
  await requirePageSession("orders.read");
  return <NotAvailable title="Orders" what="Placing and following orders arrives with the catalog and ordering work." />;
}
