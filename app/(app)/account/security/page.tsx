import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { listMyFactors } from "@/lib/auth/second-factor/manage-factors";
import { PageHeader, Card } from "@/components/ui/page-header";
import { MyFactors } from "@/components/auth/my-factors";
import { EnrolSecondFactor } from "@/components/auth/enrol-second-factor";

export const metadata: Metadata = { title: "Sign-in security" };

/** One's own second factors and recovery codes: list, add, remove, new codes. */
export default async function SecurityPage() {
  const { actor } = await requirePageSession();
  const mine = await listMyFactors(actor);
  return (
    <>
      <PageHeader
        title="Sign-in security"
        description={
          mine.required
            ? "Your role must have a second factor: it is asked at every sign-in and again before sensitive actions."
            : "A second factor is asked at every sign-in and again before sensitive actions, once you have one."
        }
      />
      <div className="space-y-6">
        <Card>
          <h2 className="mb-3 text-base font-semibold">Your second factors</h2>
          <MyFactors mine={mine} />
        </Card>
        <Card>
          <h2 className="mb-3 text-base font-semibold">Add a second factor</h2>
          <EnrolSecondFactor />
        </Card>
      </div>
    </>
  );
}
