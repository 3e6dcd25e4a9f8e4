import { PageSkeleton } from "@/components/ui/skeleton";
import { spendApprovalsHeading } from "./heading";

export default function Loading() {
  return <PageSkeleton heading={spendApprovalsHeading} />;
}
