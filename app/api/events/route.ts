import { keysetListRoute } from "@/lib/http/keyset-list-route";
import { eventCursorSchema, eventFilterSchema, listEvents } from "@/lib/webhooks/list-events";

/** The webhook inbox for the Events page (admin). */
export const GET = keysetListRoute({
  filter: eventFilterSchema,
  cursor: eventCursorSchema,
  permission: "events.read",
  list: listEvents,
});
