import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { SECOND_FACTOR_METHODS } from "@/lib/auth/second-factor/methods";

/** Registers a passkey ({name?, response}: the browser's attestation for this session's challenge). */
export const POST = withStaff(
  async ({ req, session }) =>
    Response.json(await SECOND_FACTOR_METHODS.passkey.enrol.finish(session, await readJsonBody(req)), { status: 201 }),
  { during: ["enrolment"], stepUp: true },
);
