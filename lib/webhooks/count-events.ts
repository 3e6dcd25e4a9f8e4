import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";

/** How many inbox events are in each processing state, for the Events page's summary (admin). */
export async function countEventsByState(actor: Actor): Promise<Record<string, number>> {
  assertCan(actor, "events.read");
  const groups = await db().webhookEvent.groupBy({ by: ["state"], _count: { _all: true } });
  return Object.fromEntries(groups.map((g) => [g.state, g._count._all]));
}
