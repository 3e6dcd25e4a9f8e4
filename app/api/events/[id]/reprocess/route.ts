import { withStaff } from "@/lib/http/with-staff";
import { reprocessEvent } from "@/lib/webhooks/reprocess-event";

/** Sends a failed or unknown-kind event back to the queue (admin, audited). */
export const POST = withStaff<{ id: string }>(
  async ({ actor, params }) => Response.json(await reprocessEvent(actor, params.id), { status: 202 }),
  { permission: "events.manage" },
);
