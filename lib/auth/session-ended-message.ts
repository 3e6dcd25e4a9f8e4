/**
 * What the sign-in page tells a person whose session ended, by the reason recorded on it
 * (lib/auth/staff-session.ts, session-policy.ts): an ending someone else caused says who and
 * what to do next, rather than a bare "Your session has ended".
 */
export function sessionEndedMessage(reason: string | null): string {
  switch (reason) {
    case "second_factor_reset":
      return "An admin reset your second factor, which ended your sessions. Sign in again; if your role requires a second factor, you will set up a new one.";
    case "password_reset_issued":
      return "An admin sent you a link to choose a new password, which ended your sessions. Your old password no longer works: use the link.";
    case "password_reset":
      return "Your password was changed, which ended your other sessions. Sign in with the new password.";
    case "deactivated":
      return "Your account has been deactivated. Ask an admin if you still need access.";
    case "idle_timeout":
      return "Your session ended after a while without activity. Sign in again to continue.";
    case "expired":
      return "Your session reached its time limit. Sign in again to continue.";
    default:
      return "Your session has ended. Sign in again to continue.";
  }
}
