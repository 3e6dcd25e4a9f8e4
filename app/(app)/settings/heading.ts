import type { PageHeading } from "@/components/ui/skeleton";

export const settingsHeading: PageHeading = {
  title: "Settings",
  description: "The connection to the Issuing Service, and the thresholds staff work within.",
};
