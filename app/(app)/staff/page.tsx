import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { listStaff } from "@/lib/staff/list-staff";
import { PageHeader, Card } from "@/components/ui/page-header";
import { staffHeading } from "./heading";
import { CreateStaffForm } from "@/components/staff/create-staff-form";
import { StaffTable } from "@/components/staff/staff-table";

export const metadata: Metadata = { title: "Staff" };

export default async function StaffPage() {
  const { actor } = await requirePageSession("staff.read");
  const staff = await listStaff(actor);
  return (
    <>
      <PageHeader title={staffHeading.title} description={staffHeading.description} />
      <div className="space-y-6">
        <StaffTable staff={staff} currentStaffId={actor.staffId} />
        <Card>
          <h2 className="mb-4 text-base font-semibold">Add a person</h2>
          <CreateStaffForm activeEmails={staff.filter((p) => p.active).map((p) => p.email)} />
        </Card>
      </div>
    </>
  );
}
