import { z } from "zod";
import { singleLineText } from "@/lib/validation";

/** Shared by the sign-in form (field messages) and the server (which re-validates). */
export const credentialsSchema = z.object({
  email: singleLineText({ error: "Enter your email address." })
    .trim()
    .toLowerCase()
    .min(1, "Enter your email address.")
    .max(254, "That email address is too long.")
    .email("Enter a valid email address."),
  password: singleLineText({ error: "Enter your password." })
    .min(1, "Enter your password.")
    .max(256, "That password is too long."),
});

export const GENERIC_SIGN_IN_ERROR =
  "Email or password is incorrect, or the account is temporarily locked. Try again in a few minutes if this keeps happening.";
