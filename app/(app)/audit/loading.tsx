import { PageSkeleton } from "@/components/ui/skeleton";
import { auditHeading } from "./heading";

export default function Loading() {
  return <PageSkeleton heading={auditHeading} />;
}
