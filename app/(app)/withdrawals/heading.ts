import type { PageHeading } from "@/components/ui/skeleton";

export const withdrawalsHeading: PageHeading = {
  title: "Withdrawals",
  description:
    "Payouts of unused wallet funds to the payout details registered with the Issuing Service. Finance requests; another person with the approver role approves; only then is it sent.",
};
