import "server-only";
import { db } from "@/lib/db/client";
import type { EventState } from "./event-states";

export type ClaimedEvent = { id: string; type: string; payload: unknown; occurredAt: Date | null; attempts: number };

/**
 * Moves the given events from one of `from` to `processing` in ONE conditional UPDATE and
 * returns the rows this call won. Two workers racing for a row: PostgreSQL makes the second
 * UPDATE wait for the first and re-check `state` afterwards, so it no longer matches and
 * only one of them gets the row back; on PGlite statements run one at a time anyway.
 * Each claim raises `attempts`, which then fences the outcome write (a claim that was
 * taken over after its lease ran out cannot overwrite the newer one's result).
 */
export async function claimEvents(ids: readonly string[], from: readonly EventState[]): Promise<ClaimedEvent[]> {
  if (ids.length === 0) return [];
  const rows = await db().webhookEvent.updateManyAndReturn({
    where: { id: { in: [...ids] }, state: { in: [...from] } },
    data: { state: "processing", attempts: { increment: 1 }, processedAt: new Date() },
    select: { id: true, type: true, payload: true, occurredAt: true, attempts: true },
  });
  return rows;
}
