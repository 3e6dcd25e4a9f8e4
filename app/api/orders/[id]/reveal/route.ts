import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { revealCodes } from "@/lib/reveal/reveal-codes";

/**
 * Support reveals an order's codes. The answer goes to this browser only: never cached,
 * never stored. Codes appear in no other response of the app.
 */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, session, params }) => {
    const codes = await revealCodes(actor, session, params.id, await readJsonBody(req));
    return Response.json(codes, { headers: { "cache-control": "no-store, max-age=0", pragma: "no-cache" } });
  },
  { permission: "codes.reveal" },
);
