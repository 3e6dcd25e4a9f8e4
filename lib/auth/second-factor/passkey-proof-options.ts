import "server-only";
import { AppError } from "@/lib/errors";
import type { LiveSession } from "@/lib/auth/staff-session";
import { authenticationOptions } from "./passkeys";

/** The options for `startAuthentication` in the browser, or 409 when the person has no passkey. */
export async function passkeyProofOptions(session: LiveSession) {
  const options = await authenticationOptions(session.sessionId, session.actor.staffId);
  if (!options) throw new AppError("no_passkey", "You have no passkey registered.", { status: 409 });
  return options;
}
