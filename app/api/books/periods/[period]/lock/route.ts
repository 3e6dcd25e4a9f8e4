import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { lockPeriod } from "@/lib/books/lock-period";

/** Finance locks a month: its journal is kept as it is now. */
export const POST = withStaff<{ period: string }>(
  async ({ req, actor, params }) => Response.json(await lockPeriod(actor, params.period, await readJsonBody(req))),
  { permission: "books.close" },
);
