import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { parseInput } from "@/lib/validation";
import { toMinor } from "@/lib/money";
import { spentBy, upstream } from "@/lib/upstream/service";

/**
 * The available balance in one currency, for a buyer's confirmation step ("after this
 * order you will have …"). Buyers may see this much of the wallet; the wallet pages are
 * for finance.
 */
export async function getAvailableFunds(actor: Actor, currency: unknown): Promise<{ currency: string; availableMinor: string }> {
  assertCan(actor, "orders.create");
  const code = parseInput(z.string().regex(/^[A-Z]{3}$/, "A three-letter currency code."), currency);
  const { data } = await upstream().getBalance(code, { priority: "interactive", by: spentBy(actor) });
  return { currency: code, availableMinor: toMinor(data.availableBalance, code).toString() };
}
