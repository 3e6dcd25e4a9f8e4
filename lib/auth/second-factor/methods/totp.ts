import "server-only";
import QRCode from "qrcode";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import type { LiveSession } from "@/lib/auth/staff-session";
import { assertFreshProof } from "@/lib/auth/step-up";
import { FACTOR_DESCRIPTIONS } from "../kinds";
import { relyingParty, sealKey } from "../keys";
import { openSecret, sealSecret } from "@/lib/crypto/seal";
import { checkTotp, newTotpSecret, totpUri } from "../totp";
import { confirmTotpSchema, startTotpSchema } from "../schemas";
import { keepEnrolledFactor, type EnrolResult } from "../enrol";
import type { ProofOf, SecondFactorMethod, StoredFactor } from "../methods";

/** An authenticator app (RFC 6238 codes, ../totp.ts), its secret sealed on the factor's row. */
export const totpMethod: SecondFactorMethod<"totp"> = {
  describe: FACTOR_DESCRIPTIONS.totp,
  enrol: { start: startTotpEnrolment, finish: confirmTotpEnrolment },
  prove: { verify: verifyTotpProof, refusalField: "code" },
};

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
        name: name ?? FACTOR_DESCRIPTIONS.totp.label,
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
    return keepEnrolledFactor(tx, session, { id: factor.id, kind: "totp", name: factor.name });
  });
}

/**
 * A code from any of the person's apps, accepted once: the step is kept on the factor, written
 * only if still later than the kept one, so two requests racing with the same code cannot both pass.
 */
async function verifyTotpProof(tx: Tx, _session: LiveSession, proof: ProofOf<"totp">, apps: StoredFactor[]) {
  let reused = false;
  for (const factor of apps) {
    const secret = openSecret(factor.totpSecret!, sealKey(), factor.id);
    const result = checkTotp(secret, proof.code, factor.totpLastStep === null ? null : Number(factor.totpLastStep));
    if (!result.ok) {
      reused ||= result.reason === "reused";
      continue;
    }
    const taken = await tx.secondFactor.updateMany({
      where: { id: factor.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: result.step } }] },
      data: { totpLastStep: result.step, lastUsedAt: new Date() },
    });
    if (taken.count === 1) return null;
    reused = true;
  }
  return reused ? "reused" : "wrong";
}
