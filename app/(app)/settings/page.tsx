import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { NotAvailable } from "@/components/ui/not-available";

export const metadata: Metadata = { title: "Settings" };

export default async function Page() {
  await requirePageSession("settings.read");
  return <NotAvailable title="Settings" what="Thresholds and the upstream status panel arrive with the upstream client and ordering work." />;
}
