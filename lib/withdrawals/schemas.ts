import { z } from "zod";
import { MAX_CURRENCY_DECIMALS } from "@/lib/money";
import { moneyAmount, multiLineText, refineCurrencyDecimals } from "@/lib/validation";

/** What finance types: an amount such as 250 or 250.50, and a three-letter currency. */
export const withdrawalAmountSchema = z.object({
  amount: moneyAmount({ maxDecimals: MAX_CURRENCY_DECIMALS }),
  currency: z
    .string({ error: "Choose a currency." })
    .trim()
    .regex(/^[A-Z]{3}$/, "Choose a currency."),
});
const amountDecimals = refineCurrencyDecimals<{ amount: string; currency: string }>((v) => v.currency, {
  amount: (v) => v.amount,
});
export const withdrawalQuoteSchema = withdrawalAmountSchema.strict().superRefine(amountDecimals);

export const withdrawalRequestSchema = withdrawalAmountSchema
  .extend({
    reason: multiLineText({ error: "Say why the funds are withdrawn." })
      .trim()
      .min(5, "Say why the funds are withdrawn (at least 5 characters).")
      .max(500, "At most 500 characters."),
  })
  .strict()
  .superRefine(amountDecimals);

export const approveSchema = z
  .object({
    comment: multiLineText({ error: "Enter a comment." }).trim().max(500, "At most 500 characters.").optional().default(""),
  })
  .strict();
export const rejectSchema = z
  .object({
    comment: multiLineText({ error: "Say why it is rejected." })
      .trim()
      .min(3, "Say why it is rejected.")
      .max(500, "At most 500 characters."),
  })
  .strict();

export const withdrawalListQuerySchema = z.object({
  state: z
    .enum(["open", "pending", "approved", "sending", "requested", "paid", "rejected", "expired", "cancelled", "failed"], {
      error: "Unknown state.",
    })
    .optional(),
  page: z.coerce
    .number({ error: "A page number." })
    .int("A page number.")
    .min(1, "A page number.")
    .max(10_000, "A page number.")
    .optional()
    .default(1),
});

export const withdrawalIdSchema = z.string().regex(/^wr_[A-Za-z0-9_-]{8,64}$/, "Not a withdrawal request id.");
