import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { startTotpEnrolment } from "@/lib/auth/second-factor/enrol";

/** Starts adding an authenticator app ({name?}): its key and QR code, shown this once. */
export const POST = withStaff(
  async ({ req, session }) => Response.json(await startTotpEnrolment(session, await readJsonBody(req)), { status: 201 }),
  { during: ["enrolment"], stepUp: true },
);
