import { z } from "zod";
import { MAX_CURRENCY_DECIMALS } from "@/lib/money";
import { moneyAmount, multiLineText, refineCurrencyDecimals, singleLineText } from "@/lib/validation";

const currency = z.string().regex(/^[A-Z]{3}$/, "Must be a three-letter currency code.");
/** Above zero (leave it empty for no limit), at most the currency's decimals. */
const limitAmount = z
  .union([z.literal(""), moneyAmount({ maxDecimals: MAX_CURRENCY_DECIMALS })])
  .nullable()
  .optional();

/** An admin sets one scope's limits in one currency; an empty or missing amount means no limit. */
export const spendLimitSchema = z
  .object({
    scope: z.union([z.literal("workspace"), z.string().uuid("Choose a person or the workspace default.")]),
    currency,
    perOrder: limitAmount,
    perDay: limitAmount,
    perMonth: limitAmount,
  })
  .strict()
  .superRefine(
    refineCurrencyDecimals((v) => v.currency, {
      perOrder: (v) => v.perOrder,
      perDay: (v) => v.perDay,
      perMonth: (v) => v.perMonth,
    }),
  );

export const spendRequestIdSchema = z.string().regex(/^sr_[A-Za-z0-9_-]{16}$/, "Not a spend request id.");

export const approveSpendSchema = z
  .object({ comment: multiLineText().trim().max(500, "Use at most 500 characters.").optional() })
  .strict();
export const rejectSpendSchema = z
  .object({ comment: multiLineText().trim().min(1, "Say why it is rejected.").max(500, "Use at most 500 characters.") })
  .strict();

/** The buyer's reason, required only when the order needs approval. */
export const approvalReasonSchema = singleLineText()
  .trim()
  .min(1, "Say why this order is needed.")
  .max(500, "Use at most 500 characters.");
