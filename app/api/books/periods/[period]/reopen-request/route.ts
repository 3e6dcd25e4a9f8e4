import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { requestReopen } from "@/lib/books/request-reopen";

/** Asks to reopen a locked month ({reason}); a second person approves. */
export const POST = withStaff<{ period: string }>(
  async ({ req, actor, params }) => Response.json(await requestReopen(actor, params.period, await readJsonBody(req))),
  { permission: "books.close" },
);
