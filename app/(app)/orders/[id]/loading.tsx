import { PageSkeleton } from "@/components/ui/skeleton";

/** Shown at once on a navigation here while the page waits for its data (the upstream can take seconds). */
export default function Loading() {
  return <PageSkeleton />;
}
