import { z } from "zod";
import { singleLineText } from "@/lib/validation";

/**
 * The shapes of every second-factor input. The WebAuthn responses are the JSON that
 * @simplewebauthn/browser produces; their binary members are base64url and bounded, and
 * @simplewebauthn/server verifies what they say.
 */
const b64url = (max: number) =>
  z
    .string({ error: "Expected base64url text." })
    .max(max, "Too long.")
    .regex(/^[A-Za-z0-9_-]*$/, "Expected base64url text.");

export const totpCode = z
  .string({ error: "Enter the 6-digit code." })
  .trim()
  .regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app.");

export const recoveryCode = singleLineText({ error: "Enter a recovery code." })
  .min(1, "Enter a recovery code.")
  .max(40, "That is not a recovery code.");

const extensions = z.record(z.string().max(64), z.unknown()).optional();

/** A credential's JSON as @simplewebauthn/browser sends it, around its ceremony's own `response`. */
const credential = <R extends z.ZodRawShape>(response: R) =>
  z.object({
    id: b64url(1024).min(1),
    rawId: b64url(1024).min(1),
    type: z.literal("public-key"),
    response: z.object(response),
    clientExtensionResults: extensions.default({}),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  });

export const assertionResponse = credential({
  clientDataJSON: b64url(8192).min(1),
  authenticatorData: b64url(16_384).min(1),
  // Post-quantum keys (ML-DSA, which Chromium offers) sign with up to 4.6 kB.
  signature: b64url(16_384).min(1),
  userHandle: b64url(512).optional(),
});

export const attestationResponse = credential({
  clientDataJSON: b64url(8192).min(1),
  attestationObject: b64url(32_768).min(1),
  authenticatorData: b64url(32_768).optional(),
  transports: z.array(singleLineText().max(32)).max(10).optional(),
  publicKeyAlgorithm: z.number().int().optional(),
  publicKey: b64url(16_384).optional(),
});

/** A proof of who one is, for the sign-in's second step or a step-up. */
export const proofSchema = z.discriminatedUnion(
  "method",
  [
    z.strictObject({ method: z.literal("totp"), code: totpCode }),
    z.strictObject({ method: z.literal("recovery"), code: recoveryCode }),
    z.strictObject({ method: z.literal("passkey"), response: assertionResponse }),
    z.strictObject({
      method: z.literal("password"),
      password: singleLineText({ error: "Enter your password." }).min(1, "Enter your password.").max(256),
    }),
  ],
  { error: "Choose how to confirm: totp, recovery, passkey or password." },
);

export type Proof = z.infer<typeof proofSchema>;

export const factorName = singleLineText({ error: "Name it." })
  .trim()
  .min(1, "Name it, e.g. “Phone” or “Laptop”.")
  .max(60, "At most 60 characters.");

export const confirmTotpSchema = z.strictObject({ factorId: z.uuid("Not a factor id."), code: totpCode });
export const startTotpSchema = z.strictObject({ name: factorName.optional() });
export const registerPasskeySchema = z.strictObject({ name: factorName.optional(), response: attestationResponse });
export const factorIdSchema = z.uuid("Not a factor id.");
export const renameFactorSchema = z.strictObject({ name: factorName });
