import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { SECOND_FACTOR_METHODS } from "@/lib/auth/second-factor/methods";

/** Confirms the app with its first code ({factorId, code}); the first factor brings recovery codes. */
export const POST = withStaff(
  async ({ req, session }) => Response.json(await SECOND_FACTOR_METHODS.totp.enrol.finish(session, await readJsonBody(req))),
  { during: ["enrolment"], stepUp: true },
);
