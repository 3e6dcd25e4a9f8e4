import { PageSkeleton } from "@/components/ui/skeleton";
import { catalogHeading } from "./heading";

export default function Loading() {
  return <PageSkeleton heading={catalogHeading} />;
}
