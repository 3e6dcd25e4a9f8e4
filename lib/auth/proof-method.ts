/** How a person can prove it is them again (step-up): their second factors, or with none their password. */
export const PROOF_METHODS = ["totp", "passkey", "recovery", "password"] as const;
export type ProofMethod = (typeof PROOF_METHODS)[number];
