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
import { hashRecoveryCode } from "./recovery-codes";
import { SECOND_FACTOR_METHODS, type ProofOf, type ProofRefusal, type SecondFactorMethod, type StoredFactor } from "./methods";
import type { SecondFactorKind } from "./kinds";
import { proofSchema, type Proof } from "./schemas";

type Failure = ProofRefusal | "locked";
export type ProofResult = { method: Proof["method"]; recoveryCodesLeft?: number };

/**
 * Proves the person on this session: the sign-in's second step (the session then owes
 * nothing more) or a step-up (the proof is renewed). A factor's proof is checked by its kind's
 * `prove.verify` (./methods.ts); a recovery code is accepted once (marked used in the same
 * statement that checks it). Failures count per person and per source address on the second
 * step's own counters (lib/auth/throttle.ts), taken in the same transaction as the check: past
 * the free ones the step is locked, however many proofs arrive at once, and a try during the
 * lock is refused unchecked. Every outcome is audited.
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

  const field = refusalField(proof);
  if (outcome.failure)
    throw new AppError(
      "second_factor_failed",
      outcome.failure === "no_challenge"
        ? "That passkey prompt has expired. Try again."
        : "That code is not right, was used already, or there were too many tries. Wait a moment and try again.",
      { status: 403, fieldErrors: field ? { [field]: [CODE_REFUSED] } : undefined },
    );
  return { method: proof.method, ...("left" in outcome ? { recoveryCodesLeft: outcome.left } : {}) };
}

const CODE_REFUSED = "That code is not accepted: it is wrong or was used already, or there were too many tries (wait a minute).";

/** Where a refusal is said: beside the code typed, or above the form for a device's answer. */
function refusalField(proof: Exclude<Proof, { method: "password" }>): "code" | null {
  return proof.method === "recovery" ? "code" : SECOND_FACTOR_METHODS[proof.method].prove.refusalField;
}

async function check(
  tx: Tx,
  session: LiveSession,
  proof: Exclude<Proof, { method: "password" }>,
  factors: StoredFactor[],
): Promise<ProofRefusal | null> {
  if (proof.method === "recovery") {
    const used = await tx.recoveryCode.updateMany({
      where: { staffId: session.actor.staffId, codeHash: hashRecoveryCode(proof.code), usedAt: null },
      data: { usedAt: new Date() },
    });
    return used.count === 1 ? null : "wrong";
  }
  return verifyWith(proof.method, tx, session, proof, factors);
}

/** The proof checked by its kind's method, against the person's factors of that kind only. */
function verifyWith<K extends SecondFactorKind>(
  kind: K,
  tx: Tx,
  session: LiveSession,
  proof: ProofOf<K>,
  factors: StoredFactor[],
) {
  const method: SecondFactorMethod<K> = SECOND_FACTOR_METHODS[kind];
  return method.prove.verify(
    tx,
    session,
    proof,
    factors.filter((f) => f.kind === kind),
  );
}
