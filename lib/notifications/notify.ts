import "server-only";
import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { queueDeliveries } from "./delivery-queue";
import { planEmail, type EmailPreferences } from "./email-plan";
import { KIND_DEFINITIONS, type KindDefinition, type NotificationKind, type NotificationPayload } from "./kinds";
import { isOneOf } from "@/lib/is-one-of";
import { DIGEST_MODES } from "./quiet-hours";
import { quietHours, readWorkspaceNotifications, workspaceEmailPreferences } from "./workspace-settings";

export type NotificationEvent = {
  kind: NotificationKind;
  /** Unique per causing event; recording the same key twice records nothing new. e.g. `spend-request:${id}:waiting` */
  eventKey: string;
  /** One line, what and how much: "Spend request: 3 × Blue Harbor Coffee $100.00 — $300.00, asked by Bea Buyer" */
  title: string;
  /** Optional plain text; amounts and references only, never a code or a key. */
  body?: string;
  /** App path the notification links to, e.g. `/spend-approvals` or `/orders/ord_…` (sign-in required). */
  link: string;
  /**
   * Who, always within the kind's roles (kinds.ts, the one table): every holder, or only
   * `staffIds` when given (a kind sent `to: "named"` reaches no one else); `exceptStaffIds`
   * removes people (the requester). Inactive staff never receive.
   */
  audience?: { staffIds?: string[]; exceptStaffIds?: string[] };
};

type Recipient = {
  id: string;
  hasPreferences: boolean;
  emailKinds: string[] | null;
  digest: string | null;
  quietStart: number | null;
  quietEnd: number | null;
  timeZone: string | null;
};

/**
 * A producer says what happened: `notify(tx, "wallet.low_balance", { currency, … })`. The kind's
 * definition (kinds.ts) checks the payload, names the event, words it and picks its audience;
 * a payload that does not fit throws, and the caller's transaction rolls back.
 */
export async function notify<K extends NotificationKind>(tx: Tx, kind: K, payload: NotificationPayload<K>): Promise<void> {
  const definition: KindDefinition = KIND_DEFINITIONS[kind];
  const facts: unknown = definition.payload.parse(payload);
  await recordNotification(tx, {
    kind,
    eventKey: definition.eventKey(facts),
    ...definition.compose(facts),
    audience: definition.audience?.(facts),
  });
}

/**
 * notify()'s recorder, for an event already worded (tests of delivery record such events).
 * Records the notification in the caller's transaction (Tx from lib/db/client.ts): one in-app
 * row per recipient, one outbox delivery per recipient × channel, and a `notifications.send` job
 * per delivery due (held ones wait for their digest), so it all commits or rolls back with the
 * event. The worker sends (send-delivery.ts); nothing is sent from here. The process readies the
 * queue at start (readyDeliveries: instrumentation.ts, the worker), never inside the transaction.
 */
export async function recordNotification(tx: Tx, event: NotificationEvent): Promise<void> {
  const now = new Date();
  const eventId = randomUUID();
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "NotificationEvent" ("id", "eventKey", "kind", "title", "body", "link", "createdAt")
    VALUES (${eventId}, ${event.eventKey}, ${event.kind}, ${event.title}, ${event.body ?? null}, ${event.link}, ${now})
    ON CONFLICT ("eventKey") DO NOTHING
    RETURNING "id"`;
  if (inserted.length === 0) return; // the same event, recorded before: nothing new

  const { roles, to } = KIND_DEFINITIONS[event.kind];
  const onlyNamed = to === "named" || event.audience?.staffIds !== undefined;
  const staffIds = event.audience?.staffIds ?? [];
  const except = event.audience?.exceptStaffIds ?? [];
  const recipients = await tx.$queryRaw<Recipient[]>`
    SELECT s."id", p."staffId" IS NOT NULL AS "hasPreferences", p."emailKinds", p."digest",
           p."quietStart", p."quietEnd", p."timeZone"
    FROM "Staff" s LEFT JOIN "NotificationPreference" p ON p."staffId" = s."id"
    WHERE s."active"
      AND s."roles" && ${[...roles]}::text[]::"Role"[]
      AND (NOT ${onlyNamed} OR s."id" = ANY(${staffIds}::text[]))
      AND NOT (s."id" = ANY(${except}::text[]))`;

  const workspace = await readWorkspaceNotifications(tx);
  if (recipients.length > 0) {
    await tx.notification.createMany({
      data: recipients.map((r) => ({ eventId, staffId: r.id, createdAt: now })),
      skipDuplicates: true,
    });
    const defaults = workspaceEmailPreferences(workspace);
    const emails = recipients.flatMap((r) => {
      const plan = planEmail(now, event.kind, preferencesOf(r, defaults));
      if (!plan) return [];
      return [
        {
          id: randomUUID(),
          deliveryKey: `${event.eventKey}:email:${r.id}`,
          eventId,
          channel: "email",
          staffId: r.id,
          status: plan.status,
          dueAt: plan.dueAt,
          createdAt: now,
        },
      ];
    });
    if (emails.length > 0) {
      await tx.notificationDelivery.createMany({ data: emails, skipDuplicates: true });
      await queueDeliveries(
        tx,
        emails.filter((e) => e.status === "pending"),
      );
    }
  }

  if (workspace.chatWebhookSealed && workspace.chatKinds.includes(event.kind)) {
    const chat = {
      id: randomUUID(),
      deliveryKey: `${event.eventKey}:chat`,
      eventId,
      channel: "chat",
      status: "pending",
      dueAt: now,
    };
    await tx.notificationDelivery.createMany({ data: [{ ...chat, createdAt: now }], skipDuplicates: true });
    await queueDeliveries(tx, [chat]);
  }
}

function preferencesOf(recipient: Recipient, defaults: EmailPreferences): EmailPreferences {
  if (!recipient.hasPreferences) return defaults;
  return {
    emailKinds: recipient.emailKinds ?? [],
    digest: recipient.digest && isOneOf(DIGEST_MODES, recipient.digest) ? recipient.digest : "off",
    quiet: quietHours(recipient.quietStart, recipient.quietEnd),
    timeZone: recipient.timeZone ?? defaults.timeZone,
  };
}
