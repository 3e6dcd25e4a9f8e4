import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { ssoConfig } from "@/lib/env";
import { stepUpWindowMs } from "./second-factor/keys";
import type { ProofMethod } from "./proof-method";
import { SECOND_FACTOR_KINDS } from "./second-factor/kinds";

export type { ProofMethod };

/**
 * How a person can prove it is them again: their factors; with none, their password, or for a
 * session opened by single sign-on (`sessionId`), signing in at the IdP again (an account SSO
 * created has no password anyone knows).
 */
export async function proofMethods(staffId: string, sessionId?: string): Promise<ProofMethod[]> {
  const factors = await db().secondFactor.findMany({
    where: { staffId, confirmedAt: { not: null } },
    select: { kind: true },
  });
  if (factors.length === 0) return (await openedBySso(sessionId)) ? ["sso"] : ["password"];
  const kinds = new Set(factors.map((f) => f.kind));
  return [...SECOND_FACTOR_KINDS.filter((kind) => kinds.has(kind)), "recovery"];
}

async function openedBySso(sessionId: string | undefined): Promise<boolean> {
  if (!sessionId || !ssoConfig()) return false;
  const session = await db().staffSession.findUnique({ where: { id: sessionId }, select: { firstFactor: true } });
  return session?.firstFactor === "sso";
}

export function proofIsFresh(reauthAt: Date, now = Date.now()): boolean {
  return now - reauthAt.getTime() <= stepUpWindowMs();
}

/**
 * Sensitive actions (what changes money, limits, people or sign-in rules: ARCHITECTURE.md,
 * "Step-up"; each route's choice is `withStaff`'s `stepUp`) need a proof younger than the window
 * (STEP_UP_WINDOW_SECONDS): the second factor for a person who has one, else the password (or
 * the IdP, for a session SSO opened: `proofMethods`). Refused with 403 `step_up_required`, whose
 * `stepUp.methods` tell the browser what to ask for (`useApiMutation` opens the prompt of
 * components/auth/step-up.tsx, which proves at POST /api/session/proof, and sends again).
 */
export async function assertFreshProof(session: {
  sessionId: string;
  reauthAt: Date;
  actor: { staffId: string };
}): Promise<void> {
  if (proofIsFresh(session.reauthAt)) return;
  const methods = await proofMethods(session.actor.staffId, session.sessionId);
  throw new AppError(
    "step_up_required",
    methods.includes("password")
      ? "Confirm your password to continue."
      : methods.includes("sso")
        ? "Sign in again with single sign-on to continue."
        : "Confirm it is you with your second factor to continue.",
    { status: 403, extra: { stepUp: { methods } } },
  );
}
