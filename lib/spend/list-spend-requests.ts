import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { parseInput } from "@/lib/validation";
import { bulkRequestSummaries } from "./bulk-request-summary";
import { seesAll, staffNames } from "./get-spend-request";
import { spendApprovalFacts } from "./spend-approval-facts";
import { spendPriceNotes } from "./spend-price-notes";
import { toSpendRequestView, type SpendRequestView } from "./spend-request-view";
import { SPEND_STATES } from "./states";

export const spendListQuerySchema = z.object({ state: z.enum(SPEND_STATES).optional() }).strict();

/**
 * Requests, newest first, waiting ones on top. Approvers, admins and viewers see everyone's
 * (own requests shown but not actionable); a buyer sees their own. What a bulk file buys is
 * read for each file; the facts an approver weighs (spend against limits, the wallet after)
 * for each waiting request, for those who see everyone's; for each open one, how its prices moved
 * since (the catalog watch's note).
 */
export async function listSpendRequests(actor: Actor, query: unknown = {}): Promise<SpendRequestView[]> {
  assertCan(actor, "spend.read");
  const { state } = parseInput(spendListQuerySchema, query);
  const rows = await db().spendRequest.findMany({
    where: { ...(state ? { state } : {}), ...(seesAll(actor) ? {} : { requestedById: actor.staffId }) },
    orderBy: [{ requestedAt: "desc" }],
    take: 200,
  });
  const [names, bulk, facts, priceNotes] = await Promise.all([
    staffNames(rows),
    bulkRequestSummaries(rows.flatMap((r) => (r.kind === "bulk" && r.bulkOrderId ? [r.bulkOrderId] : []))),
    seesAll(actor) ? spendApprovalFacts(actor, rows) : new Map(),
    spendPriceNotes(rows),
  ]);
  const views = rows.map((r) =>
    toSpendRequestView(r, names, actor, {
      bulk: r.bulkOrderId ? bulk.get(r.bulkOrderId) : null,
      facts: facts.get(r.id) ?? null,
      priceNote: priceNotes.get(r.id) ?? null,
    }),
  );
  return [...views.filter((v) => v.state === "awaiting"), ...views.filter((v) => v.state !== "awaiting")];
}
