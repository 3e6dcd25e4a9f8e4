import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { confirmPassword } from "@/lib/auth/confirm-password";
import { assertFreshProof, proofMethods } from "@/lib/auth/step-up";
import { AppError, isAppError } from "@/lib/errors";

export type StepUpSession = { sessionId: string; reauthAt: Date };

/**
 * A reveal needs a recent proof (lib/auth/step-up.ts). A person with a second factor gives it
 * through the step-up prompt (POST /api/session/proof), never a password here; a person with
 * none (allowed only where the policy does not require one) may send the password with the
 * reveal, checked now (failures count towards the lock-out) and renewing the window.
 */
export async function confirmStepUp(actor: Actor, session: StepUpSession, password: string | undefined): Promise<void> {
  const withPassword = password !== undefined && password !== "";
  if (!withPassword) return assertRevealProof(actor, session);
  if (!(await proofMethods(actor.staffId, session.sessionId)).includes("password"))
    return assertFreshProof({ ...session, actor });
  await confirmPassword(actor, session.sessionId, password);
}

async function assertRevealProof(actor: Actor, session: StepUpSession): Promise<void> {
  try {
    await assertFreshProof({ ...session, actor });
  } catch (error) {
    // The reveal form has its own password field: say which field it is about.
    if (
      isAppError(error) &&
      error.code === "step_up_required" &&
      (await proofMethods(actor.staffId, session.sessionId)).includes("password")
    )
      throw new AppError("step_up_required", "Confirm your password to continue.", {
        status: 403,
        fieldErrors: { password: ["Enter your password."] },
      });
    throw error;
  }
}
