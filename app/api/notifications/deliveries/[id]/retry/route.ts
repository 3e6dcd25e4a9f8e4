import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { retryDelivery } from "@/lib/notifications/retry-delivery";

/** Sends a failed notification delivery again (admins, audited). */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    return Response.json(await retryDelivery(actor, params.id), { status: 202 });
  },
  { permission: "notifications.outbox" },
);
