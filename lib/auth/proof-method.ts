import { SECOND_FACTOR_KINDS } from "./second-factor/kinds";

/**
 * How a person can prove it is them again (step-up): their second factors, or with none their
 * password, or (a session opened by single sign-on) signing in at the IdP again.
 */
export const PROOF_METHODS = [...SECOND_FACTOR_KINDS, "recovery", "password", "sso"] as const;
export type ProofMethod = (typeof PROOF_METHODS)[number];
