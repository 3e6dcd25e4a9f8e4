import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { listSpendLimits, setSpendLimit } from "@/lib/spend/set-spend-limit";

const noStore = { "cache-control": "no-store" };

/** Every spend limit: per person, and the workspace default ("workspace"). */
export const GET = withStaff(async ({ actor }) => Response.json(await listSpendLimits(actor), { headers: noStore }), {
  permission: "spend.limits",
});

/** An admin sets one scope's limits in one currency ({scope, currency, perOrder, perDay, perMonth}; empty = none). */
export const PUT = withStaff(
  async ({ req, actor }) => Response.json({ limit: await setSpendLimit(actor, await readJsonBody(req)) }, { headers: noStore }),
  { permission: "spend.limits", stepUp: true },
);
