import "server-only";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { db, type Tx } from "@/lib/db/client";
import { relyingParty } from "./keys";

/** A challenge is good for one ceremony, within this long of being handed out. */
const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * WebAuthn through @simplewebauthn/server. The challenge is kept on the session row (one at a
 * time) and taken off it by the verification that uses it, so a response cannot be replayed.
 */
export async function registrationOptions(sessionId: string, staff: { id: string; email: string; name: string }) {
  const rp = relyingParty();
  const existing = await db().secondFactor.findMany({ where: { staffId: staff.id, kind: "passkey" } });
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: staff.email,
    userDisplayName: staff.name,
    userID: new TextEncoder().encode(staff.id),
    attestationType: "none",
    excludeCredentials: existing.map((f) => ({ id: f.credentialId!, transports: f.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await keepChallenge(sessionId, options.challenge);
  return options;
}

export async function authenticationOptions(sessionId: string, staffId: string) {
  const passkeys = await db().secondFactor.findMany({ where: { staffId, kind: "passkey", confirmedAt: { not: null } } });
  if (passkeys.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().id,
    allowCredentials: passkeys.map((f) => ({ id: f.credentialId!, transports: f.transports })),
    userVerification: "preferred",
  });
  await keepChallenge(sessionId, options.challenge);
  return options;
}

async function keepChallenge(sessionId: string, challenge: string) {
  await db().staffSession.update({ where: { id: sessionId }, data: { challenge, challengeAt: new Date() } });
}

/** Takes the session's challenge off it (whatever the outcome); null when none is current. */
export async function takeChallenge(tx: Tx, sessionId: string): Promise<string | null> {
  const session = await tx.staffSession.findUnique({ where: { id: sessionId }, select: { challenge: true, challengeAt: true } });
  if (!session?.challenge) return null;
  await tx.staffSession.update({ where: { id: sessionId }, data: { challenge: null, challengeAt: null } });
  if (!session.challengeAt || Date.now() - session.challengeAt.getTime() > CHALLENGE_TTL_MS) return null;
  return session.challenge;
}

export async function verifyRegistration(response: unknown, expectedChallenge: string) {
  const result = await refusedAsNull(() =>
    verifyRegistrationResponse({ response: response as RegistrationResponseJSON, ...expected(expectedChallenge) }),
  );
  return result?.verified ? result.registrationInfo.credential : null;
}

export type StoredPasskey = { credentialId: string; publicKey: Uint8Array; signCount: bigint; transports: string[] };

/** The new signature counter when the assertion verifies against the stored key, else null. */
export async function verifyAssertion(response: unknown, expectedChallenge: string, passkey: StoredPasskey) {
  const result = await refusedAsNull(() =>
    verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      ...expected(expectedChallenge),
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: Number(passkey.signCount),
        transports: passkey.transports,
      },
    }),
  );
  return result?.verified ? result.authenticationInfo.newCounter : null;
}

/** What every ceremony's response must carry: this session's challenge, signed for this app. */
function expected(expectedChallenge: string) {
  const rp = relyingParty();
  return { expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false };
}

/** A malformed response, a wrong origin or challenge: the same refusal as a signature that fails. */
async function refusedAsNull<T>(verify: () => Promise<T>): Promise<T | null> {
  try {
    return await verify();
  } catch {
    return null;
  }
}
