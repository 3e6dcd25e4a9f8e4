import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { proveSecondFactor } from "@/lib/auth/second-factor/prove-second-factor";

/**
 * Proves it is the person: the sign-in's second step, or a step-up renewing the proof
 * ({method: "totp" | "recovery", code} | {method: "passkey", response} | {method: "password", password},
 * the last only for a person with no second factor).
 */
export const POST = withStaff(
  async ({ req, session }) => Response.json(await proveSecondFactor(session, await readJsonBody(req))),
  { during: ["second_factor", "enrolment"] },
);
