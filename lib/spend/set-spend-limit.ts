import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { minorToDecimal, parseMinor } from "@/lib/money";
import { parseInput } from "@/lib/validation";
import { spendLimitSchema } from "./schemas";

export type SpendLimitView = {
  scope: string;
  currency: string;
  perOrder: string | null;
  perDay: string | null;
  perMonth: string | null;
};

/**
 * An admin sets one person's (or the workspace default's) limits in one currency; all
 * three empty removes the row, so the default applies again. Audited with before and after.
 */
export async function setSpendLimit(actor: Actor, input: unknown): Promise<SpendLimitView | null> {
  assertCan(actor, "spend.limits");
  const data = parseInput(spendLimitSchema, input);
  if (data.scope !== "workspace" && !(await db().staff.findUnique({ where: { id: data.scope }, select: { id: true } }))) {
    throw new AppError("invalid_request", "There is no such person.", {
      fieldErrors: { scope: ["Choose a person or the workspace default."] },
    });
  }
  // The schema bounded each amount, kept it above zero and within the currency's decimals.
  const minor = (v: string | null | undefined) => (v ? parseMinor(v, data.currency) : null);
  const amounts = {
    perOrderMinor: minor(data.perOrder),
    perDayMinor: minor(data.perDay),
    perMonthMinor: minor(data.perMonth),
  };
  const where = { scope_currency: { scope: data.scope, currency: data.currency } };
  return db().$transaction(async (tx) => {
    const before = await tx.spendLimit.findUnique({ where });
    const none = Object.values(amounts).every((v) => v === null);
    const after = none
      ? null
      : await tx.spendLimit.upsert({
          where,
          create: { scope: data.scope, currency: data.currency, ...amounts, updatedById: actor.staffId },
          update: { ...amounts, updatedById: actor.staffId },
        });
    if (none && before) await tx.spendLimit.delete({ where });
    await recordAudit(tx, {
      action: "spend.limits",
      actor,
      targetId: `${data.scope}:${data.currency}`,
      details: { from: before ? toLimitView(before) : null, to: after ? toLimitView(after) : null },
    });
    return after ? toLimitView(after) : null;
  });
}

export function toLimitView(row: {
  scope: string;
  currency: string;
  perOrderMinor: bigint | null;
  perDayMinor: bigint | null;
  perMonthMinor: bigint | null;
}): SpendLimitView {
  const d = (v: bigint | null) => (v === null ? null : minorToDecimal(v, row.currency));
  return {
    scope: row.scope,
    currency: row.currency,
    perOrder: d(row.perOrderMinor),
    perDay: d(row.perDayMinor),
    perMonth: d(row.perMonthMinor),
  };
}

/** Every limit row, for the admin page. */
export async function listSpendLimits(actor: Actor): Promise<SpendLimitView[]> {
  assertCan(actor, "spend.limits");
  const rows = await db().spendLimit.findMany({ orderBy: [{ scope: "asc" }, { currency: "asc" }] });
  return rows.map(toLimitView);
}
