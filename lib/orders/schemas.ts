import { z } from "zod";
import { MAX_CURRENCY_DECIMALS, MAX_FACE_VALUE_DECIMALS } from "@/lib/money";
import { moneyNumber, refineCurrencyDecimals, singleLineText } from "@/lib/validation";

export const E164 = /^\+[1-9]\d{6,14}$/;

const idempotencyKey = z.string().regex(/^[\x21-\x7e]{1,128}$/, "Must be 1–128 printable characters.");
const clientReference = singleLineText().trim().min(1, "Enter a client reference.").max(100, "Use at most 100 characters.");
const phoneNumber = singleLineText().trim().regex(E164, "Enter the number in international format, e.g. +447700900123.");
const currency = z.string().regex(/^[A-Z]{3}$/, "Must be a three-letter currency code.");
/** A card's face value: in the card's face currency (lib/catalog/face-value.ts), its steps checked upstream. */
export const faceValueSchema = moneyNumber({ maxDecimals: MAX_FACE_VALUE_DECIMALS });

/** What a buyer submits to place an order: from a quote, or priced inline. */
export const placeOrderSchema = z
  .object({
    idempotencyKey,
    clientReference,
    quoteId: singleLineText().min(1).max(200).optional(),
    item: z
      .object({
        productId: singleLineText().min(1).max(200),
        variantId: singleLineText().min(1).max(200).nullable().optional(),
        value: faceValueSchema.nullable().optional(),
        quantity: z.number().int("Must be a whole number.").min(1, "At least 1.").max(1000, "At most 1000."),
        currency,
      })
      .strict()
      .optional(),
    /** In the item's currency: at most its decimals. */
    maximumTotal: moneyNumber({ maxDecimals: MAX_CURRENCY_DECIMALS }).optional(),
    phoneNumber: phoneNumber.optional(),
    /** Said only when the order needs an approver (lib/spend/gate-order.ts). */
    approvalReason: singleLineText()
      .trim()
      .min(1, "Say why this order is needed.")
      .max(500, "Use at most 500 characters.")
      .optional(),
  })
  .strict()
  .refine((v) => (v.quoteId ? !v.item : !!v.item), { message: "Give either a quote or an item, not both.", path: ["quoteId"] })
  .refine((v) => !(v.quoteId && v.maximumTotal !== undefined), {
    message: "A maximum total applies only to inline pricing.",
    path: ["maximumTotal"],
  })
  .superRefine(refineCurrencyDecimals((v) => v.item?.currency, { maximumTotal: (v) => v.maximumTotal }));

export type PlaceOrderInput = z.infer<typeof placeOrderSchema>;
