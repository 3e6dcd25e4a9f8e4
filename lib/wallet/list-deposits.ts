import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { pageSizeSchema, parseInput } from "@/lib/validation";
import { spentBy, upstream } from "@/lib/upstream/service";
import { toDepositView, type DepositView } from "./deposit-view";

/** The upstream's cursor is opaque; only its character set is checked here (the upstream refuses a bad one). */
export const depositCursorSchema = z.string().regex(/^[A-Za-z0-9_\-=.~+/]{1,512}$/, "Is not a page position this app gave out.");

export const depositQuerySchema = z.strictObject({
  cursor: depositCursorSchema.optional(),
  limit: pageSizeSchema(100, 20),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "A three-letter currency code.")
    .optional(),
});
export type DepositQuery = z.input<typeof depositQuerySchema>;
export type DepositPageView = { items: DepositView[]; nextCursor: string | null; hasMore: boolean; readAt: string };

/** One page of the deposit history, newest first, read from the Issuing Service now. */
export async function listDeposits(actor: Actor, input: unknown): Promise<DepositPageView> {
  assertCan(actor, "wallet.read");
  const query = parseInput(depositQuerySchema, input ?? {});
  const { data } = await upstream().listDeposits(query, { priority: "interactive", by: spentBy(actor) });
  return {
    items: data.items.map(toDepositView),
    nextCursor: data.hasMore ? data.nextCursor : null,
    hasMore: data.hasMore,
    readAt: new Date().toISOString(),
  };
}
