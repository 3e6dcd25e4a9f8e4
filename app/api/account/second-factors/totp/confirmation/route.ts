import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { confirmTotpEnrolment } from "@/lib/auth/second-factor/enrol";

/** Confirms the app with its first code ({factorId, code}); the first factor brings recovery codes. */
export const POST = withStaff(
  async ({ req, session }) => Response.json(await confirmTotpEnrolment(session, await readJsonBody(req))),
  { during: ["enrolment"], stepUp: true },
);
