import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import type { Prisma } from "@/lib/db/client";
import { minorToDecimal } from "@/lib/money";
import { FACTOR_DESCRIPTIONS, SECOND_FACTOR_KINDS } from "@/lib/auth/second-factor/kinds";

/**
 * The pieces the audit actions' detail schemas (lib/audit/actions.ts) are built of. Each says what
 * the call sites record, no looser: a schema that stopped matching is caught by the tests
 * (lib/audit/record.ts checks every write there). A row stores what the call site gave; what a
 * schema outputs is how the audit page reads it (minor units read as amounts).
 */

/** No details: the action, its actor and its target say it all. */
export const noDetails = z.undefined();

export const currency = z.string().regex(/^[A-Z]{3}$/);
/** An amount as `minorToDecimal` writes it ("12.50", "-3", "1000"). */
export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
/** Minor units as a decimal string (JSON has no bigint). */
export const minorUnits = z.string().regex(/^\d+$/);
export const count = z.number().int().nonnegative();
/** An ISO 8601 time with its offset (ours end in Z; the upstream's may carry one). */
export const isoTime = z.iso.datetime({ offset: true });
/** A code from our rules or the upstream's refusals ("wrong_password", "price_above_maximum"). */
export const reasonCode = z.string().min(1);
/** Staff roles as the database holds them (text), which must be roles of the table. */
export const roles = z.array(z.string().pipe(z.enum(ROLES)));

/** "12.50 USD": how the audit page reads an amount recorded in minor units. */
function inWords(currency: string, minor: string): string {
  return `${minorToDecimal(BigInt(minor), currency)} ${currency}`;
}

/**
 * A spend request's totals as stored on its row (currency → minor units). The call sites pass
 * the row's JSON column as it is; this is what it must hold. Read back as amounts in words.
 */
export const storedSpendTotals = z
  .custom<Prisma.JsonValue>((value) => value !== undefined)
  .pipe(z.record(currency, minorUnits))
  .transform((totals) => Object.entries(totals).map(([code, minor]) => inWords(code, minor)));

/** A bulk file's totals as stored on it ([{currency, totalMinor}]). Read back as amounts in words. */
export const bulkTotals = z
  .array(z.strictObject({ currency, totalMinor: minorUnits }))
  .transform((totals) => totals.map((t) => inWords(t.currency, t.totalMinor)));

/** A spend request's kind as its row holds it (text). */
export const spendKind = z.string().pipe(z.enum(["order", "bulk"]));

/** A kind of second factor as stored ("totp"), read as its name ("Authenticator app"). */
export const factorKind = z.enum(SECOND_FACTOR_KINDS).transform((kind) => FACTOR_DESCRIPTIONS[kind].label);

/** How a person proved it was them again: a kind of second factor, or a recovery code. */
export const factorProof = z
  .enum([...SECOND_FACTOR_KINDS, "recovery"])
  .transform((method) => (method === "recovery" ? "Recovery code" : FACTOR_DESCRIPTIONS[method].label));

/** A setting's value: a figure as text, a whole number, or a figure per currency. */
export const settingValue = z.union([z.string(), z.number(), z.record(z.string(), z.string())]);

export const spendLimitView = z.strictObject({
  scope: z.string().min(1),
  currency,
  perOrder: decimal.nullable(),
  perDay: decimal.nullable(),
  perMonth: decimal.nullable(),
});

/** What a reveal's entries all carry: which reveal, and the support ticket and reason given for it. */
export const revealRequest = {
  revealId: z.string().min(1),
  ticket: z.string(),
  reason: z.string(),
};

/** What a withdrawal's money entries all carry. */
export const withdrawalAmount = { amount: decimal, currency };
