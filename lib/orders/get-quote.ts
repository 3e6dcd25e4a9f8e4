import "server-only";
import { z } from "zod";
import { singleLineText, parseInput } from "@/lib/validation";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentBy, upstream } from "@/lib/upstream/service";
import type { Quote } from "@/lib/upstream/client";
import { recordIssuedQuote } from "@/lib/spend/issued-quote";
import { faceValueSchema } from "./schemas";

export const quoteRequestSchema = z
  .object({
    productId: singleLineText().min(1).max(200),
    variantId: singleLineText().min(1).max(200).nullable().optional(),
    value: faceValueSchema.nullable().optional(),
    quantity: z
      .number({ error: "Enter a quantity." })
      .int("Must be a whole number.")
      .min(1, "At least 1.")
      .max(100, "At most 100."),
    currency: z.string().regex(/^[A-Z]{3}$/),
  })
  .strict()
  .refine((v) => !!v.variantId !== (v.value != null), { message: "Choose a variant or a value.", path: ["variantId"] });

/**
 * A binding, short-lived price for one purchase. Availability and the value grid are
 * re-checked by the upstream; its refusals come back with their codes.
 */
export async function getQuote(actor: Actor, input: unknown): Promise<Quote & { correlationId?: string; expiresInMs: number }> {
  assertCan(actor, "orders.create");
  const body = parseInput(quoteRequestSchema, input);
  const { data, correlationId } = await upstream().createQuote(
    {
      productId: body.productId,
      variantId: body.variantId ?? null,
      value: body.value ?? null,
      quantity: body.quantity,
      currency: body.currency,
    },
    { by: spentBy(actor) },
  );
  await recordIssuedQuote(actor, data, {
    productId: body.productId,
    variantId: body.variantId ?? null,
    value: body.value ?? null,
    quantity: body.quantity,
    currency: body.currency,
  });
  // The browser counts down from this server's clock, never its own: a page whose clock is
  // off by minutes must still show the quote's real time left.
  return { ...data, correlationId, expiresInMs: Math.max(0, Date.parse(data.expiresAtUtc) - Date.now()) };
}
