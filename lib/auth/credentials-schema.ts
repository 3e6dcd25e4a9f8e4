import { z } from "zod";
import { emailAddress, singleLineText } from "@/lib/validation";

/** Shared by the sign-in form (field messages) and the server (which re-validates). */
export const credentialsSchema = z.object({
  email: emailAddress({ missing: "Enter your email address." }),
  password: singleLineText({ error: "Enter your password." })
    .min(1, "Enter your password.")
    .max(256, "That password is too long."),
});

export const GENERIC_SIGN_IN_ERROR =
  "Email or password is incorrect, or the account is temporarily locked. Try again in a few minutes if this keeps happening.";

/** The error next-auth reports for a right password refused because single sign-on is the only way in. */
export const PASSWORDS_OFF_ERROR = "PasswordsOff";
export const PASSWORDS_OFF_MESSAGE = "Passwords are turned off for this workspace: sign in with single sign-on instead.";
