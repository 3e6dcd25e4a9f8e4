import { PageSkeleton } from "@/components/ui/skeleton";
import { settingsHeading } from "./heading";

export default function Loading() {
  return <PageSkeleton heading={settingsHeading} />;
}
