import "server-only";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import type { LiveSession } from "@/lib/auth/staff-session";
import { assertFreshProof } from "@/lib/auth/step-up";
import { FACTOR_DESCRIPTIONS } from "../kinds";
import { authenticationOptions, registrationOptions, takeChallenge, verifyAssertion, verifyRegistration } from "../passkeys";
import { registerPasskeySchema } from "../schemas";
import { keepEnrolledFactor, type EnrolResult } from "../enrol";
import type { ProofOf, SecondFactorMethod, StoredFactor } from "../methods";

/**
 * A passkey (WebAuthn through ../passkeys.ts): its public key on the factor's row, each
 * ceremony signing a challenge kept on the session, which the verification takes off it.
 */
export const passkeyMethod: SecondFactorMethod<"passkey"> = {
  describe: FACTOR_DESCRIPTIONS.passkey,
  enrol: { start: passkeyRegistrationOptions, finish: registerPasskey },
  prove: { verify: verifyPasskeyProof, refusalField: null },
};

/** The options for `startRegistration` in the browser (the challenge is kept on this session). */
export async function passkeyRegistrationOptions(session: LiveSession) {
  const { staffId, email, name } = session.actor;
  return registrationOptions(session.sessionId, { id: staffId, email, name });
}

/** Registers a passkey from the browser's attestation (its challenge is this session's). */
export async function registerPasskey(session: LiveSession, input: unknown): Promise<EnrolResult> {
  const { name, response } = parseInput(registerPasskeySchema, input);
  await assertFreshProof(session);
  const { actor } = session;
  return db().$transaction(async (tx) => {
    const challenge = await takeChallenge(tx, session.sessionId);
    const credential = challenge ? await verifyRegistration(response, challenge) : null;
    if (!credential)
      throw new AppError("passkey_not_registered", "The passkey could not be registered. Try again.", { status: 400 });
    if (await tx.secondFactor.findUnique({ where: { credentialId: credential.id } }))
      throw new AppError("conflict", "That passkey is registered already.");
    const factor = await tx.secondFactor.create({
      data: {
        staffId: actor.staffId,
        kind: "passkey",
        name: name ?? FACTOR_DESCRIPTIONS.passkey.label,
        credentialId: credential.id,
        publicKey: new Uint8Array(credential.publicKey),
        signCount: BigInt(credential.counter),
        transports: credential.transports ?? [],
        confirmedAt: new Date(),
      },
    });
    return keepEnrolledFactor(tx, session, { id: factor.id, kind: "passkey", name: factor.name });
  });
}

/** The options for `startAuthentication` in the browser, or 409 when the person has no passkey. */
export async function passkeyProofOptions(session: LiveSession) {
  const options = await authenticationOptions(session.sessionId, session.actor.staffId);
  if (!options) throw new AppError("no_passkey", "You have no passkey registered.", { status: 409 });
  return options;
}

/** The browser's assertion, signed by one of the person's passkeys over this session's challenge. */
async function verifyPasskeyProof(tx: Tx, session: LiveSession, proof: ProofOf<"passkey">, passkeys: StoredFactor[]) {
  const challenge = await takeChallenge(tx, session.sessionId);
  if (!challenge) return "no_challenge";
  const passkey = passkeys.find((f) => f.credentialId === proof.response.id);
  if (!passkey) return "wrong";
  const counter = await verifyAssertion(proof.response, challenge, {
    credentialId: passkey.credentialId!,
    publicKey: passkey.publicKey!,
    signCount: passkey.signCount,
    transports: passkey.transports,
  });
  if (counter === null) return "wrong";
  await tx.secondFactor.update({ where: { id: passkey.id }, data: { signCount: BigInt(counter), lastUsedAt: new Date() } });
  return null;
}
