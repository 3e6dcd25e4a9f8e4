import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { passkeyProofOptions } from "@/lib/auth/second-factor/methods/passkey";

/** A WebAuthn challenge for this session's person's passkeys (sign-in's second step or a step-up). */
export const POST = withStaff(
  async ({ req, session }) => {
    await readEmptyBody(req);
    return Response.json(await passkeyProofOptions(session));
  },
  { during: ["second_factor"] },
);
