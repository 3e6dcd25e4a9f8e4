import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { NotAvailable } from "@/components/ui/not-available";

export const metadata: Metadata = { title: "Withdrawals" };

export default async function Page() {
  await requirePageSession("withdrawals.read");
  return <NotAvailable title="Withdrawals" what="Withdrawal requests with maker-checker approval arrive with the wallet work." />;
}
