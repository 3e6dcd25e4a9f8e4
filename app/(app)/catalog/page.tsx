import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { NotAvailable } from "@/components/ui/not-available";

export const metadata: Metadata = { title: "Catalog" };

export default async function Page() {
  await requirePageSession("catalog.read");
  return <NotAvailable title="Catalog" what="Browsing the Issuing Service's catalog of gift cards, eSIM plans and top-ups arrives with the catalog and ordering work." />;
}
