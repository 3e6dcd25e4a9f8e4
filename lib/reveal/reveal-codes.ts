import "server-only";
import { z } from "zod";
import { multiLineText, singleLineText, parseInput } from "@/lib/validation";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { AppError, isAppError } from "@/lib/errors";
import { spentBy, upstream } from "@/lib/upstream/service";
import { finishReveal } from "./finish-reveal";
import { startReveal } from "./start-reveal";
import { confirmStepUp, type StepUpSession } from "./step-up";

export const revealRequestSchema = z
  .object({
    idempotencyKey: z.string().regex(/^[\x21-\x7e]{1,128}$/, "Must be 1–128 printable characters."),
    ticket: singleLineText({ error: "Enter the ticket reference." })
      .trim()
      .min(1, "Enter the ticket reference.")
      .max(64, "Use at most 64 characters."),
    reason: multiLineText({ error: "Say why the codes are needed." })
      .trim()
      .min(5, "Say why the codes are needed (at least 5 characters).")
      .max(500, "Use at most 500 characters."),
    password: singleLineText().max(256).optional(),
  })
  .strict();

export type RevealedCodes = {
  orderId: string;
  revealCount: number;
  artifacts: { type: string; value: string; expiresAtUtc: string | null }[];
};

/**
 * Reveals an order's codes to one support person, for a stated reason, after a fresh
 * password confirmation, within an hourly quota. Lock, check, record, then act: the
 * reveal's row and audit entry are committed before the upstream is asked (startReveal),
 * so a reveal that cannot be recorded never happens. The codes go back to the caller
 * only: never to the database, the logs or the audit row. A retry under the same
 * idempotency key is the same reveal upstream (counted once) and here (one row).
 */
export async function revealCodes(actor: Actor, session: StepUpSession, orderId: string, input: unknown): Promise<RevealedCodes> {
  assertCan(actor, "codes.reveal");
  const request = parseInput(revealRequestSchema, input);
  if (!/^[A-Za-z0-9._~-]{1,200}$/.test(orderId)) throw new AppError("not_found", "There is no such order.");
  await confirmStepUp(actor, session, request.password);
  const started = await startReveal(actor, orderId, request);

  let reveal;
  try {
    reveal = await upstream().revealFulfillment(orderId, started.idempotencyKey, {
      priority: "money",
      deadlineMs: 45_000,
      by: spentBy(actor),
    });
  } catch (error) {
    const code = isAppError(error) ? error.code : "error";
    await finishReveal(actor, orderId, started, request, {
      state: "failed",
      errorCode: code,
      upstreamCorrelationId: isAppError(error) ? error.correlationId : undefined,
    });
    throw error;
  }

  const { data, correlationId } = reveal;
  await finishReveal(actor, orderId, started, request, {
    state: "succeeded",
    revealCount: data.revealCount,
    items: data.artifacts.length,
    upstreamCorrelationId: correlationId,
  });
  return { orderId: data.orderId, revealCount: data.revealCount, artifacts: data.artifacts };
}
