import "server-only";
import { db, type Tx } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import type { LiveSession } from "@/lib/auth/staff-session";
import { confirmPassword } from "@/lib/auth/confirm-password";
import {
  clearFailures,
  recordFailure,
  secondFactorAddressKey,
  secondFactorKey,
  takeCounters,
  THROTTLE_POLICY,
} from "@/lib/auth/throttle";
import { sealKey } from "./keys";
import { openSecret } from "@/lib/crypto/seal";
import { checkTotp } from "./totp";
import { hashRecoveryCode } from "./recovery-codes";
import { takeChallenge, verifyAssertion } from "./passkeys";
import { proofSchema, type Proof } from "./schemas";

type Failure = "wrong" | "reused" | "locked" | "no_challenge";
export type ProofResult = { method: Proof["method"]; recoveryCodesLeft?: number };

/**
 * Proves the person on this session: the sign-in's second step (the session then owes
 * nothing more) or a step-up (the proof is renewed). A TOTP code is accepted once (its step is
 * kept on the factor, written only if still later than the kept one, so two requests racing
 * with the same code cannot both pass); a recovery code once (marked used in the same
 * statement that checks it); a passkey by its signature over a challenge this session was
 * given. Failures count per person and per source address on the second step's own counters
 * (lib/auth/throttle.ts), taken in the same transaction as the check: past the free ones the
 * step is locked, however many proofs arrive at once, and a try during the lock is refused
 * unchecked. Every outcome is audited.
 */
export async function proveSecondFactor(session: LiveSession, input: unknown): Promise<ProofResult> {
  const proof = parseInput(proofSchema, input);
  const { actor } = session;
  const purpose = session.pendingStep === "second_factor" ? "sign_in" : "step_up";
  const factors = await db().secondFactor.findMany({ where: { staffId: actor.staffId, confirmedAt: { not: null } } });

  if (proof.method === "password") {
    if (factors.length > 0 || session.pendingStep === "second_factor")
      throw new AppError("second_factor_required", "Confirm with your authenticator app, a passkey or a recovery code.", {
        status: 403,
      });
    await confirmPassword(actor, session.sessionId, proof.password);
    return { method: "password" };
  }
  if (factors.length === 0) throw new AppError("no_second_factor", "You have no second factor to confirm with.", { status: 409 });

  const outcome = await db().$transaction(async (tx) => {
    const locked = await takeCounters(tx, [
      secondFactorKey(actor.staffId),
      ...(actor.ip ? [secondFactorAddressKey(actor.ip)] : []),
    ]);
    const failure: Failure | null = locked ? "locked" : await check(tx, session, proof, factors);
    if (failure) {
      if (!locked) {
        await recordFailure(tx, secondFactorKey(actor.staffId), THROTTLE_POLICY.account.freeFailures);
        if (actor.ip) await recordFailure(tx, secondFactorAddressKey(actor.ip), THROTTLE_POLICY.address.freeFailures);
      }
      await recordAudit(tx, {
        action: "auth.second_factor_failed",
        actor,
        targetId: session.sessionId,
        details: { method: proof.method, reason: failure, purpose },
      });
      return { failure } as const;
    }
    await clearFailures(tx, secondFactorKey(actor.staffId));
    await tx.staffSession.update({ where: { id: session.sessionId }, data: { pendingStep: null, reauthAt: new Date() } });
    await recordAudit(tx, {
      action: "auth.second_factor",
      actor,
      targetId: session.sessionId,
      details: { method: proof.method, purpose },
    });
    if (proof.method !== "recovery") return { failure: null } as const;
    const left = await tx.recoveryCode.count({ where: { staffId: actor.staffId, usedAt: null } });
    await recordAudit(tx, { action: "auth.recovery_code_used", actor, targetId: actor.staffId, details: { left } });
    return { failure: null, left } as const;
  });

  if (outcome.failure)
    throw new AppError(
      "second_factor_failed",
      outcome.failure === "no_challenge"
        ? "That passkey prompt has expired. Try again."
        : "That code is not right, was used already, or there were too many tries. Wait a moment and try again.",
      {
        status: 403,
        fieldErrors:
          proof.method === "passkey"
            ? undefined
            : {
                code: [
                  "That code is not accepted: it is wrong or was used already, or there were too many tries (wait a minute).",
                ],
              },
      },
    );
  return { method: proof.method, ...("left" in outcome ? { recoveryCodesLeft: outcome.left } : {}) };
}

type Factor = Awaited<ReturnType<Tx["secondFactor"]["findMany"]>>[number];

async function check(tx: Tx, session: LiveSession, proof: Exclude<Proof, { method: "password" }>, factors: Factor[]) {
  const staffId = session.actor.staffId;
  if (proof.method === "recovery") {
    const used = await tx.recoveryCode.updateMany({
      where: { staffId, codeHash: hashRecoveryCode(proof.code), usedAt: null },
      data: { usedAt: new Date() },
    });
    return used.count === 1 ? null : "wrong";
  }
  if (proof.method === "totp") {
    let reused = false;
    for (const factor of factors.filter((f) => f.kind === "totp")) {
      const secret = openSecret(factor.totpSecret!, sealKey(), factor.id);
      const result = checkTotp(secret, proof.code, factor.totpLastStep === null ? null : Number(factor.totpLastStep));
      if (!result.ok) {
        reused ||= result.reason === "reused";
        continue;
      }
      // Only a later step than the one kept: a concurrent use of the same code finds it taken.
      const taken = await tx.secondFactor.updateMany({
        where: { id: factor.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: result.step } }] },
        data: { totpLastStep: result.step, lastUsedAt: new Date() },
      });
      if (taken.count === 1) return null;
      reused = true;
    }
    return reused ? "reused" : "wrong";
  }
  const challenge = await takeChallenge(tx, session.sessionId);
  if (!challenge) return "no_challenge";
  const passkey = factors.find((f) => f.kind === "passkey" && f.credentialId === proof.response.id);
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
