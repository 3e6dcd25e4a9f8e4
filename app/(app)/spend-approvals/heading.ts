import type { PageHeading } from "@/components/ui/skeleton";

export const spendApprovalsHeading: PageHeading = {
  title: "Spend approvals",
  description:
    "Orders above the approval threshold, or past a buyer's limit, wait here. Another person with the approver role approves or rejects them; the buyer who asked never can.",
};
