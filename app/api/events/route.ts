import { z } from "zod";
import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { eventCursorSchema, eventFilterSchema, listEvents } from "@/lib/webhooks/list-events";

const querySchema = eventFilterSchema.extend({
  cursor: eventCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/** The webhook inbox for the Events page (admin). */
export const GET = withStaff(
  async ({ req, actor }) => {
    const { cursor, limit, ...filter } = parseInput(querySchema, searchParamsObject(req.url));
    return Response.json(await listEvents(actor, filter, { cursor, limit }));
  },
  { permission: "events.read" },
);
