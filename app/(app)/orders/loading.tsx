import { PageSkeleton } from "@/components/ui/skeleton";
import { ordersHeading } from "./heading";

export default function Loading() {
  return <PageSkeleton heading={ordersHeading} />;
}
