import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { NotAvailable } from "@/components/ui/not-available";

export const metadata: Metadata = { title: "Wallet" };

export default async function Page() {
  await requirePageSession("wallet.read");
  return <NotAvailable title="Wallet" what="The wallet balance, deposit address and deposit history arrive with the wallet work." />;
}
