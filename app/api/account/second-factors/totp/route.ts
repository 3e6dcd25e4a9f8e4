import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { SECOND_FACTOR_METHODS } from "@/lib/auth/second-factor/methods";

/** Starts adding an authenticator app ({name?}): its key and QR code, shown this once. */
export const POST = withStaff(
  async ({ req, session }) =>
    Response.json(await SECOND_FACTOR_METHODS.totp.enrol.start(session, await readJsonBody(req)), { status: 201 }),
  { during: ["enrolment"], stepUp: true },
);
