import type { PageHeading } from "@/components/ui/skeleton";

export const walletHeading: PageHeading = {
  title: "Wallet",
  description:
    "Balances as the Issuing Service reports them, read when this page loaded; the chart comes from this app's own records.",
};
