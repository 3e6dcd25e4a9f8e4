import type { PageHeading } from "@/components/ui/skeleton";

export const eventsHeading: PageHeading = {
  title: "Events",
  description:
    "Webhooks received from the Issuing Service, newest first. Each is stored before it is acknowledged and processed once, in the background; failures are retried with backoff. A signed event whose data cannot be stored is refused for good and listed as Refused, with its body.",
};
