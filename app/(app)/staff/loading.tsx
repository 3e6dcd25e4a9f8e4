import { PageSkeleton } from "@/components/ui/skeleton";
import { staffHeading } from "./heading";

export default function Loading() {
  return <PageSkeleton heading={staffHeading} />;
}
