import { PageSkeleton } from "@/components/ui/skeleton";
import { eventsHeading } from "./heading";

export default function Loading() {
  return <PageSkeleton heading={eventsHeading} />;
}
