import type { PageHeading } from "@/components/ui/skeleton";

export const ordersHeading: PageHeading = {
  title: "Orders",
  description: "Orders placed at the Issuing Service, newest first, as this app last heard of them.",
};
