import "server-only";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { logger } from "@/lib/log";
import { transitionReveal } from "./transition-reveal";
import type { RevealRequest, StartedReveal } from "./start-reveal";

type Answer = { revealCount: number; items: number; upstreamCorrelationId?: string };
type Failure = { errorCode: string; upstreamCorrelationId?: string };

/**
 * Records the upstream's answer on the reveal's row, with an audit entry. The row was
 * committed before the upstream was asked, so if this write fails the reveal is still on
 * record (as `started`): the failure is logged and the person still gets the answer.
 */
export async function markRevealSucceeded(actor: Actor, orderId: string, reveal: StartedReveal, request: RevealRequest, answer: Answer): Promise<void> {
  await settle("succeeded", reveal, () =>
    db().$transaction(async (tx) => {
      const moved = await transitionReveal(tx, reveal.id, "succeeded", { revealCount: answer.revealCount, upstreamCorrelationId: answer.upstreamCorrelationId ?? null, errorCode: null, finishedAt: new Date() });
      if (!moved) return; // a replay of a reveal already recorded as succeeded
      await recordAudit(tx, {
        action: "order.reveal",
        actor,
        targetType: "order",
        targetId: orderId,
        correlationId: answer.upstreamCorrelationId ?? reveal.correlationId,
        details: { revealId: reveal.id, ticket: request.ticket, reason: request.reason, revealCount: answer.revealCount, items: answer.items },
      });
    }),
  );
}

export async function markRevealFailed(actor: Actor, orderId: string, reveal: StartedReveal, request: RevealRequest, failure: Failure): Promise<void> {
  await settle("failed", reveal, () =>
    db().$transaction(async (tx) => {
      const moved = await transitionReveal(tx, reveal.id, "failed", { errorCode: failure.errorCode, upstreamCorrelationId: failure.upstreamCorrelationId ?? null, finishedAt: new Date() });
      if (!moved) return;
      await recordAudit(tx, {
        action: "order.reveal_failed",
        actor,
        targetType: "order",
        targetId: orderId,
        correlationId: failure.upstreamCorrelationId ?? reveal.correlationId,
        details: { revealId: reveal.id, ticket: request.ticket, reason: request.reason, outcome: failure.errorCode },
      });
    }),
  );
}

async function settle(state: string, reveal: StartedReveal, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    logger.error("reveal outcome not recorded; the reveal stays on record as started", { revealId: reveal.id, state, correlationId: reveal.correlationId, error: error instanceof Error ? error.message : String(error) });
  }
}
