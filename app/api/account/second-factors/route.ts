import { withStaff } from "@/lib/http/with-staff";
import { listMyFactors } from "@/lib/auth/second-factor/manage-factors";

/** The signed-in person's own second factors (kinds and names; never a secret). */
export const GET = withStaff(async ({ actor }) => Response.json(await listMyFactors(actor)), { during: ["enrolment"] });
