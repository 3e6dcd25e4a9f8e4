import type { PageHeading } from "@/components/ui/skeleton";

export const staffHeading: PageHeading = {
  title: "Staff",
  description: "Who can sign in, and what each person may do. Deactivating someone ends their sessions at once.",
};
