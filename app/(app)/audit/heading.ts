import type { PageHeading } from "@/components/ui/skeleton";

export const auditHeading: PageHeading = {
  title: "Audit log",
  description: "Every change, sign-in and sensitive action, newest first. Rows can never be edited or removed.",
};
