import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { approveReopen } from "@/lib/books/approve-reopen";

/** A second person reopens the month someone else asked to reopen. */
export const POST = withStaff<{ period: string }>(
  async ({ req, actor, params }) => Response.json(await approveReopen(actor, params.period, await readJsonBody(req))),
  { permission: "books.close", stepUp: true },
);
