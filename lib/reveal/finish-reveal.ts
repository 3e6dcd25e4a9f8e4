import "server-only";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { recordAudit, type AuditEntry } from "@/lib/audit/record";
import { logger } from "@/lib/log";
import { countEvent } from "@/lib/telemetry/event-counts";
import { transitionReveal } from "./transition-reveal";
import type { RevealRequest, StartedReveal } from "./start-reveal";

type Outcome =
  | { state: "succeeded"; revealCount: number; items: number; upstreamCorrelationId?: string }
  | { state: "failed"; errorCode: string; upstreamCorrelationId?: string };

/**
 * Records the upstream's answer on the reveal's row, with an audit entry. The row was
 * committed before the upstream was asked, so if this write fails the reveal is still on
 * record (as `started`): the failure is logged and the person still gets the answer.
 */
export async function finishReveal(
  actor: Actor,
  orderId: string,
  reveal: StartedReveal,
  request: RevealRequest,
  outcome: Outcome,
): Promise<void> {
  const succeeded = outcome.state === "succeeded";
  if (succeeded) countEvent("dgis_reveals_total");
  const fields = succeeded ? { revealCount: outcome.revealCount, errorCode: null } : { errorCode: outcome.errorCode };
  const recorded = { actor, targetId: orderId, correlationId: outcome.upstreamCorrelationId ?? reveal.correlationId };
  const asked = { revealId: reveal.id, ticket: request.ticket, reason: request.reason };
  const entry: AuditEntry =
    outcome.state === "succeeded"
      ? { ...recorded, action: "order.reveal", details: { ...asked, revealCount: outcome.revealCount, items: outcome.items } }
      : { ...recorded, action: "order.reveal_failed", details: { ...asked, outcome: outcome.errorCode } };
  await settle(outcome.state, reveal, () =>
    db().$transaction(async (tx) => {
      const moved = await transitionReveal(tx, reveal.id, outcome.state, {
        ...fields,
        upstreamCorrelationId: outcome.upstreamCorrelationId ?? null,
        finishedAt: new Date(),
      });
      if (!moved) return; // a replay of a reveal already recorded with this outcome
      await recordAudit(tx, entry);
    }),
  );
}

async function settle(state: string, reveal: StartedReveal, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    logger.error("reveal outcome not recorded; the reveal stays on record as started", {
      revealId: reveal.id,
      state,
      correlationId: reveal.correlationId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
