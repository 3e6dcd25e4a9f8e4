import "server-only";
import type { Prisma, Tx } from "@/lib/db/client";
import { REVEAL_STATES, REVEAL_TRANSITIONS, type RevealState } from "./reveal-states";

/**
 * Moves a reveal to `to` if its current state allows it; returns whether it moved.
 * A replay of a succeeded reveal (same key) leaves it succeeded: the upstream counted it once.
 */
export async function transitionReveal(
  tx: Tx,
  id: string,
  to: RevealState,
  data: Omit<Prisma.CodeRevealUpdateManyMutationInput, "state"> = {},
): Promise<boolean> {
  const from = REVEAL_STATES.filter((state) => REVEAL_TRANSITIONS[state].includes(to));
  const { count } = await tx.codeReveal.updateMany({ where: { id, state: { in: from } }, data: { ...data, state: to } });
  return count === 1;
}
