import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { SECOND_FACTOR_METHODS } from "@/lib/auth/second-factor/methods";

/** The options for `startRegistration` in the browser (the challenge is kept on this session). */
export const POST = withStaff(
  async ({ req, session }) => {
    await readEmptyBody(req);
    return Response.json(await SECOND_FACTOR_METHODS.passkey.enrol.start(session, {}));
  },
  { during: ["enrolment"], stepUp: true },
);
