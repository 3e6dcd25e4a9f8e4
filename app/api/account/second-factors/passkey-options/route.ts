import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { passkeyRegistrationOptions } from "@/lib/auth/second-factor/enrol";

/** The options for `startRegistration` in the browser (the challenge is kept on this session). */
export const POST = withStaff(
  async ({ req, session }) => {
    await readEmptyBody(req);
    return Response.json(await passkeyRegistrationOptions(session));
  },
  { during: ["enrolment"], stepUp: true },
);
