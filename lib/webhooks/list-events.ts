import "server-only";
import { eventSubject, type EventSubject } from "./event-subject";
import { z } from "zod";
import { singleLineText } from "@/lib/validation";
import { db, type Prisma } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import {
  cappedCount,
  keysetPage,
  pageLimit,
  readTimeCursor,
  timeCursor,
  type CappedCount,
  type KeysetPage,
} from "@/lib/db/keyset-page";
import { EVENT_STATES } from "./event-states";

const blankToUndefined = (v: string | undefined) => v || undefined;

export const eventFilterSchema = z.object({
  state: z
    .enum(EVENT_STATES)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** An exact kind, or a family such as "order.*". */
  kind: singleLineText()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9_.:*-]*$/, "Not an event kind.")
    .optional()
    .transform(blankToUndefined),
});
export type EventFilter = z.infer<typeof eventFilterSchema>;

/** `<receivedAt ms>.<event id>` of the last row of the previous page. */
export const eventCursorSchema = z.string().regex(/^\d{1,15}\.[0-9a-f]{32}$/, "Invalid cursor.");

export type EventRow = {
  id: string;
  type: string;
  state: string;
  occurredAt: Date | null;
  receivedAt: Date;
  processedAt: Date | null;
  attempts: number;
  lastError: string | null;
  /** Only for `refused` events: the body as received, with unstorable characters escaped. */
  refusedBody: string | null;
  /** The order or amount the event is about (lib/webhooks/event-subject.ts). */
  subject: EventSubject | null;
  /** The payload as received, for the row's detail view (webhooks carry no codes). */
  payload: unknown;
};

/** The webhook inbox, newest first (admin), each event with its subject and payload (a refused event's body escaped). */
export async function listEvents(
  actor: Actor,
  filter: EventFilter,
  page: { cursor?: string; limit?: number } = {},
): Promise<KeysetPage<EventRow>> {
  assertCan(actor, "events.read");
  const limit = pageLimit(page.limit, 200);
  const where = eventWhere(filter);
  if (page.cursor && eventCursorSchema.safeParse(page.cursor).success) {
    const { at, id } = readTimeCursor(page.cursor);
    where.OR = [{ receivedAt: { lt: at } }, { receivedAt: at, id: { lt: id } }];
  }
  const found = await db().webhookEvent.findMany({
    where,
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: {
      id: true,
      type: true,
      state: true,
      occurredAt: true,
      receivedAt: true,
      processedAt: true,
      attempts: true,
      lastError: true,
      payload: true,
    },
  });
  return keysetPage(
    found.map((row) => ({ ...withRefusedBody(row), subject: eventSubject(row.payload) })),
    limit,
    (row) => timeCursor(row.receivedAt, row.id),
  );
}

/** How many events match the filter, up to the counting cap. */
export async function countEvents(actor: Actor, filter: EventFilter): Promise<CappedCount> {
  assertCan(actor, "events.read");
  return cappedCount((take) => db().webhookEvent.count({ where: eventWhere(filter), take }));
}

function eventWhere(filter: EventFilter): Prisma.WebhookEventWhereInput {
  const where: Prisma.WebhookEventWhereInput = {};
  if (filter.state) where.state = filter.state;
  if (filter.kind) where.type = filter.kind.endsWith(".*") ? { startsWith: filter.kind.slice(0, -1) } : filter.kind;
  return where;
}

/** A refused event's payload holds only the body as received (lib/webhooks/refuse-event.ts). */
function withRefusedBody<R extends { state: string; payload: unknown }>(row: R): R & { refusedBody: string | null } {
  const body = row.state === "refused" ? (row.payload as { refusedBody?: unknown } | null)?.refusedBody : null;
  return { ...row, refusedBody: typeof body === "string" ? body : null };
}
