import "server-only";
import type { Tx } from "@/lib/db/client";
import { APPROVAL_KINDS } from "./kinds";

/** `approval.waiting:<request id>`, `…:r2` for a later round (lib/approval-notices.ts). */
const APPROVAL_KEY = /^approval\.(?:waiting|expiring):(.+?)(?::r(\d+))?$/;

/**
 * The event keys, among approval notices, whose request no longer waits for a decision
 * (decided, expired, cancelled, or sent back as a later round): a digest composed after that
 * must not ask anyone to approve it. Requests are spend requests (`awaiting`) and withdrawals
 * (`pending`); one query for both.
 */
export async function noLongerWaiting(tx: Tx, events: readonly { kind: string; eventKey: string }[]): Promise<Set<string>> {
  const asked = events.flatMap((e) => {
    const match = (APPROVAL_KINDS as readonly string[]).includes(e.kind) ? APPROVAL_KEY.exec(e.eventKey) : null;
    return match ? [{ eventKey: e.eventKey, id: match[1]!, round: Number(match[2] ?? 1) }] : [];
  });
  if (asked.length === 0) return new Set();
  const ids = [...new Set(asked.map((a) => a.id))];
  const waiting = await tx.$queryRaw<{ id: string; round: number }[]>`
    SELECT "id", "round" FROM "SpendRequest" WHERE "id" = ANY(${ids}::text[]) AND "state" = 'awaiting'
    UNION ALL
    SELECT "id", 1 AS "round" FROM "WithdrawalRequest" WHERE "id" = ANY(${ids}::text[]) AND "state" = 'pending'`;
  const rounds = new Map(waiting.map((w) => [w.id, Number(w.round)]));
  return new Set(asked.filter((a) => rounds.get(a.id) !== a.round).map((a) => a.eventKey));
}
