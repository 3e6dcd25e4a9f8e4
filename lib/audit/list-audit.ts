import "server-only";
import { z } from "zod";
import { bigintCursorSchema, optionalIsoDaySchema, singleLineText } from "@/lib/validation";
import { db, type Prisma } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { cappedCount, keysetPage, SEARCH_COUNT_CAP, pageLimit, type CappedCount, type KeysetPage } from "@/lib/db/keyset-page";

export const auditFilterSchema = z.object({
  actor: singleLineText()
    .trim()
    .max(200, "Use at most 200 characters.")
    .optional()
    .transform((v) => v || undefined),
  action: singleLineText()
    .trim()
    .max(100, "Use at most 100 characters.")
    .optional()
    .transform((v) => v || undefined),
  from: optionalIsoDaySchema,
  to: optionalIsoDaySchema,
  /** "hide": leave out sign-ins and sign-outs, which otherwise drown every other entry. */
  signIns: z
    .enum(["hide"])
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

/** The id of the last row of the previous page: a BIGINT the database can hold. */
export const auditCursorSchema = bigintCursorSchema;
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export type AuditRow = {
  id: string;
  at: Date;
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  correlationId: string | null;
  details: unknown;
};

export function auditWhere(filter: AuditFilter): Prisma.AuditEventWhereInput {
  const where: Prisma.AuditEventWhereInput = {};
  if (filter.actor) where.actorEmail = { contains: filter.actor, mode: "insensitive" };
  if (filter.action) where.action = filter.action.endsWith(".*") ? { startsWith: filter.action.slice(0, -1) } : filter.action;
  if (filter.signIns === "hide") where.NOT = { action: { in: ["auth.sign_in", "auth.sign_out"] } };
  if (filter.from || filter.to) {
    where.at = {
      ...(filter.from ? { gte: new Date(`${filter.from}T00:00:00.000Z`) } : {}),
      // "to" is inclusive of the whole day.
      ...(filter.to ? { lt: new Date(new Date(`${filter.to}T00:00:00.000Z`).getTime() + 86_400_000) } : {}),
    };
  }
  return where;
}

/** Newest first; `cursor` is the id of the last row of the previous page. */
export async function listAudit(
  actor: Actor,
  filter: AuditFilter,
  page: { cursor?: string; limit?: number } = {},
): Promise<KeysetPage<AuditRow>> {
  assertCan(actor, "audit.read");
  const limit = pageLimit(page.limit, 200);
  const where = auditWhere(filter);
  if (page.cursor && auditCursorSchema.safeParse(page.cursor).success) where.id = { lt: BigInt(page.cursor) };
  const found = await db().auditEvent.findMany({ where, orderBy: { id: "desc" }, take: limit + 1 });
  return keysetPage(
    found.map((r) => ({ ...r, id: r.id.toString() })),
    limit,
    (row) => row.id,
  );
}

/** How many entries match the filter, up to the counting cap (the search cap when the actor's address is searched). */
export async function countAudit(actor: Actor, filter: AuditFilter): Promise<CappedCount> {
  assertCan(actor, "audit.read");
  return cappedCount(
    (take) => db().auditEvent.count({ where: auditWhere(filter), take }),
    filter.actor ? SEARCH_COUNT_CAP : undefined,
  );
}
