import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { registerPasskey } from "@/lib/auth/second-factor/enrol";

/** Registers a passkey ({name?, response}: the browser's attestation for this session's challenge). */
export const POST = withStaff(
  async ({ req, session }) => Response.json(await registerPasskey(session, await readJsonBody(req)), { status: 201 }),
  { during: ["enrolment"], stepUp: true },
);
