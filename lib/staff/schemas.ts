import { z } from "zod";
import { emailAddress, singleLineText } from "@/lib/validation";
import { ROLES } from "@/lib/auth/permissions";

export const passwordSchema = singleLineText({ error: "Enter a password." })
  .min(12, "Use at least 12 characters.")
  .max(256, "Use at most 256 characters.");

export const rolesSchema = z
  .array(z.enum(ROLES, { error: (issue) => `Unknown role "${String(issue.input)}".` }), { error: "Choose at least one role." })
  .min(1, "Choose at least one role.")
  .max(ROLES.length)
  .transform((roles) => [...new Set(roles)]);

export const createStaffSchema = z.object({
  email: emailAddress({ missing: "Enter an email address." }),
  name: singleLineText({ error: "Enter a name." }).trim().min(1, "Enter a name.").max(120, "Use at most 120 characters."),
  roles: rolesSchema,
  password: passwordSchema,
});
export type CreateStaffInput = z.infer<typeof createStaffSchema>;

export const updateStaffSchema = z
  .object({
    name: singleLineText().trim().min(1, "Enter a name.").max(120, "Use at most 120 characters.").optional(),
    roles: rolesSchema.optional(),
    active: z.boolean({ error: "Must be true or false." }).optional(),
  })
  .strict()
  .refine((v) => v.name !== undefined || v.roles !== undefined || v.active !== undefined, { message: "Nothing to change." });
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;

export const resetPasswordSchema = z.object({ password: passwordSchema }).strict();

export const staffIdSchema = z.string().uuid("Unknown staff id.");
