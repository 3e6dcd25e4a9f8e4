import "server-only";
import QRCode from "qrcode";
import { db, type Tx } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import type { LiveSession } from "@/lib/auth/staff-session";
import { assertFreshProof } from "@/lib/auth/step-up";
import { relyingParty, sealKey } from "./keys";
import { openSecret, sealSecret } from "@/lib/crypto/seal";
import { checkTotp, newTotpSecret, totpUri } from "./totp";
import { issueRecoveryCodes } from "./recovery-code-store";
import { registrationOptions, takeChallenge, verifyRegistration } from "./passkeys";
import { confirmTotpSchema, registerPasskeySchema, startTotpSchema } from "./schemas";

/** What enrolment hands back: recovery codes with the first factor only (shown once). */
export type EnrolResult = { factorId: string; recoveryCodes: string[] | null };

/**
 * Adding a second factor. An enrolling session (pendingStep "enrolment", sent here by the
 * policy) may do nothing else; once its first factor is confirmed the session owes nothing
 * more. A complete session adds factors from Account security. Starting and confirming both
 * need a fresh proof (lib/auth/step-up.ts; the routes ask for it too), and a factor added does
 * not renew that proof: it proves the person holds the new factor, not that they are who
 * signed in, so a stale session cannot make itself fresh by adding one.
 */

/** Starts an authenticator app: the secret, its otpauth URI and a QR code, shown this once. */
export async function startTotpEnrolment(session: LiveSession, input: unknown) {
  const { name } = parseInput(startTotpSchema, input);
  const { actor } = session;
  const secret = newTotpSecret();
  const factor = await db().$transaction(async (tx) => {
    // One unconfirmed app at a time: starting again forgets the last one's secret.
    await tx.secondFactor.deleteMany({ where: { staffId: actor.staffId, kind: "totp", confirmedAt: null } });
    const id = crypto.randomUUID();
    return tx.secondFactor.create({
      data: {
        id,
        staffId: actor.staffId,
        kind: "totp",
        name: name ?? "Authenticator app",
        totpSecret: sealSecret(secret, sealKey(), id),
      },
    });
  });
  const uri = totpUri(secret, actor.email, relyingParty().name);
  return {
    factorId: factor.id,
    secret,
    uri,
    qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }),
  };
}

/** Confirms an authenticator app with its first code (which is then spent, as any code). */
export async function confirmTotpEnrolment(session: LiveSession, input: unknown): Promise<EnrolResult> {
  const { factorId, code } = parseInput(confirmTotpSchema, input);
  await assertFreshProof(session);
  const { actor } = session;
  const factor = await db().secondFactor.findFirst({
    where: { id: factorId, staffId: actor.staffId, kind: "totp", confirmedAt: null },
  });
  if (!factor) throw new AppError("not_found", "That set-up has expired. Start again.");
  const result = checkTotp(openSecret(factor.totpSecret!, sealKey(), factor.id), code, null);
  if (!result.ok)
    throw new AppError("invalid_request", "That code is not right.", {
      fieldErrors: { code: ["That code is not right. Check the app shows this account, and the phone's clock."] },
    });
  return db().$transaction(async (tx) => {
    await tx.secondFactor.update({
      where: { id: factor.id },
      data: { confirmedAt: new Date(), totpLastStep: result.step, lastUsedAt: new Date() },
    });
    return finishEnrolment(tx, session, { id: factor.id, kind: "totp", name: factor.name });
  });
}

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
        name: name ?? "Passkey",
        credentialId: credential.id,
        publicKey: new Uint8Array(credential.publicKey),
        signCount: BigInt(credential.counter),
        transports: credential.transports ?? [],
        confirmedAt: new Date(),
      },
    });
    return finishEnrolment(tx, session, { id: factor.id, kind: "passkey", name: factor.name });
  });
}

async function finishEnrolment(
  tx: Tx,
  session: LiveSession,
  factor: { id: string; kind: string; name: string },
): Promise<EnrolResult> {
  const { actor } = session;
  await recordAudit(tx, {
    action: "second_factor.enrol",
    actor,
    targetId: actor.staffId,
    details: { kind: factor.kind === "passkey" ? "passkey" : "totp", name: factor.name },
  });
  const others = await tx.secondFactor.count({
    where: { staffId: actor.staffId, confirmedAt: { not: null }, id: { not: factor.id } },
  });
  const unused = await tx.recoveryCode.count({ where: { staffId: actor.staffId, usedAt: null } });
  const recoveryCodes = others === 0 || unused === 0 ? await issueRecoveryCodes(tx, actor) : null;
  if (session.pendingStep === "enrolment")
    await tx.staffSession.update({ where: { id: session.sessionId }, data: { pendingStep: null } });
  return { factorId: factor.id, recoveryCodes };
}
