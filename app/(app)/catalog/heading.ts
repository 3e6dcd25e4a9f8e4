import type { PageHeading } from "@/components/ui/skeleton";

export const catalogHeading: PageHeading = {
  title: "Catalog",
  description:
    "Gift cards, eSIM plans and phone top-ups from the Issuing Service, featured first. Prices are wholesale, in each product's sell currency.",
};
