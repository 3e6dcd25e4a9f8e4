import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db, type Prisma } from "@/lib/db/client";
import { keysetPage, pageLimit, type KeysetPage } from "@/lib/db/keyset-page";
import { AppError } from "@/lib/errors";
import { isoDaySchema, optionalIsoDaySchema } from "@/lib/validation";
import { toReconciliationView, type ReconciliationView } from "./reconciliation-view";

export const reconciliationFilterSchema = z.object({
  status: z
    .enum(["reconciled", "difference", "baseline"], { error: "Choose reconciled, difference or baseline." })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** One day only (the day's page exports this). */
  day: optionalIsoDaySchema,
});
export type ReconciliationFilter = z.infer<typeof reconciliationFilterSchema>;

/** `<day>.<currency>` of the last row of the previous page (days newest first, currencies A–Z). */
export const reconciliationCursorSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}\.[A-Z]{3}$/, "Not a reconciliation cursor.");

export function reconciliationWhere(filter: ReconciliationFilter, cursor?: string): Prisma.WalletReconciliationWhereInput {
  const where: Prisma.WalletReconciliationWhereInput = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.day ? { day: filter.day } : {}),
  };
  if (!cursor || !reconciliationCursorSchema.safeParse(cursor).success) return where;
  const [day, currency] = cursor.split(".") as [string, string];
  return { AND: [where, { OR: [{ day: { lt: day } }, { day, currency: { gt: currency } }] }] };
}

export const RECONCILIATION_ORDER = [
  { day: "desc" },
  { currency: "asc" },
] satisfies Prisma.WalletReconciliationOrderByWithRelationInput[];

/** The kept days, newest first, one row per currency. */
export async function listReconciliations(
  actor: Actor,
  filter: ReconciliationFilter,
  page: { cursor?: string; limit?: number } = {},
): Promise<KeysetPage<ReconciliationView>> {
  assertCan(actor, "wallet.read");
  const limit = pageLimit(page.limit, 200);
  const found = await db().walletReconciliation.findMany({
    where: reconciliationWhere(filter, page.cursor),
    orderBy: RECONCILIATION_ORDER,
    take: limit + 1,
  });
  return keysetPage(found.map(toReconciliationView), limit, (r) => `${r.day}.${r.currency}`);
}

/** Every currency of one kept day; 404 when the day was never reconciled. */
export async function getReconciliationDay(actor: Actor, day: unknown): Promise<ReconciliationView[]> {
  assertCan(actor, "wallet.read");
  const parsed = isoDaySchema.safeParse(day);
  if (!parsed.success) throw new AppError("not_found", "No reconciliation for that day.", { status: 404 });
  const rows = await db().walletReconciliation.findMany({ where: { day: parsed.data }, orderBy: { currency: "asc" } });
  if (!rows.length) throw new AppError("not_found", "No reconciliation for that day.", { status: 404 });
  return rows.map(toReconciliationView);
}

/** The most recent days with a difference (for the notice on the finance and admin home pages). */
export async function latestDifferences(actor: Actor, take = 3): Promise<ReconciliationView[]> {
  assertCan(actor, "wallet.read");
  const rows = await db().walletReconciliation.findMany({
    where: { status: "difference" },
    orderBy: RECONCILIATION_ORDER,
    take,
  });
  return rows.map(toReconciliationView);
}

/** How many kept day-and-currency rows match the filter. */
export async function countReconciliations(actor: Actor, filter: ReconciliationFilter): Promise<number> {
  assertCan(actor, "wallet.read");
  return db().walletReconciliation.count({ where: reconciliationWhere(filter) });
}
