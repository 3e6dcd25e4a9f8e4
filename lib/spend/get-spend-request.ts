import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { assertCan } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import type { SpendRequest } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { spendRequestIdSchema } from "./schemas";
import { toSpendRequestView, type SpendRequestView } from "./spend-request-view";

/** Names of the people on these requests, in one query. */
export async function staffNames(rows: SpendRequest[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((r) => [r.requestedById, ...(r.decidedById ? [r.decidedById] : [])]))];
  const staff = await db().staff.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(staff.map((s) => [s.id, s.name]));
}

export async function viewSpendRequest(row: SpendRequest, actor: Actor): Promise<SpendRequestView> {
  return toSpendRequestView(row, await staffNames([row]), actor);
}

/** One request: approvers and admins see all; a buyer sees their own. */
export async function getSpendRequest(actor: Actor, id: unknown): Promise<SpendRequestView> {
  assertCan(actor, "spend.read");
  const row = await db().spendRequest.findUnique({ where: { id: parseInput(spendRequestIdSchema, id) } });
  if (!row || (row.requestedById !== actor.staffId && !seesAll(actor)))
    throw new AppError("not_found", "This spend request does not exist.");
  return viewSpendRequest(row, actor);
}

export function seesAll(actor: Actor): boolean {
  return actor.roles.some((r) => r === "approver" || r === "admin" || r === "viewer");
}
