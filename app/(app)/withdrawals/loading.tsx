import { PageSkeleton } from "@/components/ui/skeleton";
import { withdrawalsHeading } from "./heading";

export default function Loading() {
  return <PageSkeleton heading={withdrawalsHeading} />;
}
