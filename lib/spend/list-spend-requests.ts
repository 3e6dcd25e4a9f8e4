import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { parseInput } from "@/lib/validation";
import { seesAll, staffNames } from "./get-spend-request";
import { toSpendRequestView, type SpendRequestView } from "./spend-request-view";
import { SPEND_STATES } from "./states";

export const spendListQuerySchema = z.object({ state: z.enum(SPEND_STATES).optional() }).strict();

/**
 * Requests, newest first, waiting ones on top. Approvers, admins and viewers see everyone's
 * (own requests shown but not actionable); a buyer sees their own.
 */
export async function listSpendRequests(actor: Actor, query: unknown = {}): Promise<SpendRequestView[]> {
  assertCan(actor, "spend.read");
  const { state } = parseInput(spendListQuerySchema, query);
  const rows = await db().spendRequest.findMany({
    where: { ...(state ? { state } : {}), ...(seesAll(actor) ? {} : { requestedById: actor.staffId }) },
    orderBy: [{ requestedAt: "desc" }],
    take: 200,
  });
  const names = await staffNames(rows);
  const views = rows.map((r) => toSpendRequestView(r, names, actor));
  return [...views.filter((v) => v.state === "awaiting"), ...views.filter((v) => v.state !== "awaiting")];
}
