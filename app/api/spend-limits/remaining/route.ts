import { z } from "zod";
import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { getRemainingSpend } from "@/lib/spend/get-remaining-spend";

const querySchema = z.strictObject({ currency: z.string().regex(/^[A-Z]{3}$/, "Must be a three-letter currency code.") });

/** What the signed-in buyer may still order in a currency without an approval (explanation only; the server checks on submit). */
export const GET = withStaff(
  async ({ req, actor }) => {
    const { currency } = parseInput(querySchema, searchParamsObject(req.url));
    return Response.json(await getRemainingSpend(actor, currency), { headers: { "cache-control": "no-store" } });
  },
  { permission: "orders.create" },
);
