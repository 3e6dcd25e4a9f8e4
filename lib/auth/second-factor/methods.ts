import "server-only";
import type { Tx } from "@/lib/db/client";
import type { LiveSession } from "@/lib/auth/staff-session";
import type { EnrolResult } from "./enrol";
import type { FactorDescription, SecondFactorKind } from "./kinds";
import type { Proof } from "./schemas";
import { passkeyMethod } from "./methods/passkey";
import { totpMethod } from "./methods/totp";

/** A confirmed factor's row, as the proof's check reads it. */
export type StoredFactor = Awaited<ReturnType<Tx["secondFactor"]["findMany"]>>[number];

/** The proof body of one kind ({method: kind, …}), a member of `proofSchema`. */
export type ProofOf<K extends SecondFactorKind> = Extract<Proof, { method: K }>;

/** Why a proof was refused (locked, the throttle's, is decided before any method is asked). */
export type ProofRefusal = "wrong" | "reused" | "no_challenge";

/**
 * What a kind of second factor is to the server. Enrolment is two steps: `start` hands the
 * person's device what it needs (an app's key and QR code, a passkey's options), `finish` checks
 * what the device answered and keeps the factor, confirmed (each through `keepEnrolledFactor`,
 * which audits it and issues the first recovery codes). A proof is checked by `verify` against
 * the person's confirmed factors of that kind, in the transaction that counts failures.
 */
export type SecondFactorMethod<K extends SecondFactorKind> = {
  describe: FactorDescription;
  enrol: {
    start: (session: LiveSession, input: unknown) => Promise<unknown>;
    finish: (session: LiveSession, input: unknown) => Promise<EnrolResult>;
  };
  prove: {
    verify: (tx: Tx, session: LiveSession, proof: ProofOf<K>, factors: StoredFactor[]) => Promise<ProofRefusal | null>;
    /** The field a refusal is said beside (a typed code), or null: said above the form (a device's answer). */
    refusalField: "code" | null;
  };
};

/** Every kind of second factor, by kind: the routes, the proof and the checks look a method up here. */
export const SECOND_FACTOR_METHODS: { [K in SecondFactorKind]: SecondFactorMethod<K> } = {
  totp: totpMethod,
  passkey: passkeyMethod,
};
