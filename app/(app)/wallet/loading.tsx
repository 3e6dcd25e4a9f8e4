import { PageSkeleton } from "@/components/ui/skeleton";
import { walletHeading } from "./heading";

export default function Loading() {
  return <PageSkeleton heading={walletHeading} />;
}
