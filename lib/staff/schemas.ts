import { z } from "zod";
import { emailAddress, singleLineText } from "@/lib/validation";
import { ROLES } from "@/lib/auth/permissions";
import { LINK_TOKEN_PATTERN } from "./access-links/link-rules";

export const passwordSchema = singleLineText({ error: "Enter a password." })
  .min(12, "Use at least 12 characters.")
  .max(256, "Use at most 256 characters.");

export const rolesSchema = z
  .array(z.enum(ROLES, { error: (issue) => `Unknown role "${String(issue.input)}".` }), { error: "Choose at least one role." })
  .min(1, "Choose at least one role.")
  .max(ROLES.length)
  .transform((roles) => [...new Set(roles)]);

const nameSchema = singleLineText({ error: "Enter a name." })
  .trim()
  .min(1, "Enter a name.")
  .max(120, "Use at most 120 characters.");

/** The operator's account with a password (`npm run staff:create`, local mode's demo accounts). */
export const createStaffSchema = z.object({
  email: emailAddress({ missing: "Enter an email address." }),
  name: nameSchema,
  roles: rolesSchema,
  password: passwordSchema,
});
export type CreateStaffInput = z.infer<typeof createStaffSchema>;

/** An admin's invitation: who, and with which roles; the invitee sets the password. */
export const inviteStaffSchema = z.strictObject({
  email: emailAddress({ missing: "Enter an email address." }),
  name: nameSchema,
  roles: rolesSchema,
});

/** A one-time link's token (from its address) and the password its holder chooses. */
export const useAccessLinkSchema = z.strictObject({
  token: singleLineText({ error: "This link is not valid." }).regex(LINK_TOKEN_PATTERN, "This link is not valid."),
  password: passwordSchema,
});

export const accessLinkIdSchema = z.string().uuid("Unknown invitation.");

export const updateStaffSchema = z
  .object({
    name: singleLineText().trim().min(1, "Enter a name.").max(120, "Use at most 120 characters.").optional(),
    roles: rolesSchema.optional(),
    active: z.boolean({ error: "Must be true or false." }).optional(),
  })
  .strict()
  .refine((v) => v.name !== undefined || v.roles !== undefined || v.active !== undefined, { message: "Nothing to change." });
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;

export const staffIdSchema = z.string().uuid("Unknown staff id.");
