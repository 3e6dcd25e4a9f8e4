import { describe, expect, test } from "vitest";
import { z } from "zod";
import { KIND_DEFINITIONS, NOTIFICATION_KINDS, type KindDefinition, type NotificationPayload } from "@/lib/notifications/kinds";
import { kindOptionsFor, workspaceKindOptions } from "@/lib/notifications/form-options";
import { ROLES } from "@/lib/auth/permissions";

/** What a kind's definition lacks; empty when it is whole. */
function gaps(definition: Partial<KindDefinition> | undefined): string[] {
  if (!definition) return ["no definition"];
  return [
    ...(definition.label?.trim() ? [] : ["no label"]),
    ...(definition.roles?.length ? [] : ["no roles"]),
    ...(definition.payload instanceof z.ZodType ? [] : ["no payload schema"]),
    ...(typeof definition.eventKey === "function" ? [] : ["no event key"]),
    ...(typeof definition.compose === "function" ? [] : ["no composer"]),
    ...(definition.to === "named" && typeof definition.audience !== "function" ? ["sent to named people, but names nobody"] : []),
  ];
}

const at = new Date("2026-11-28T10:15:00Z");
const subject = {
  id: "wr_1",
  what: "Withdrawal of $500.00",
  requestedById: "s_req",
  requesterName: "Fay Finance",
  link: "/withdrawals",
};

/** One event of each kind, as a producer says it: adding a kind means adding its example here. */
const EXAMPLES: { [K in (typeof NOTIFICATION_KINDS)[number]]: NotificationPayload<K> } = {
  "approval.waiting": { subject, expiresAt: at },
  "approval.decided": {
    subject,
    approved: true,
    deciderId: "s_dec",
    deciderName: "Abe Approver",
    then: { what: "withdrawal_sending" },
  },
  "approval.expiring": { subject, expiresAt: at },
  "wallet.low_balance": { currency: "USD", availableMinor: 81_240n, thresholdMinor: 100_000n, episode: 3 },
  "orders.failed": {
    about: "order",
    orderId: "ord_1",
    clientReference: "spring-17",
    total: { currency: "USD", amountMinor: 5_700n },
    buyerId: "s_buy",
  },
  "reveal.quota_alert": { staffId: "s_1", name: "Sam Support", email: "sam@example.test", used: 10, quota: 10, at },
  "upstream.share_repeated": { staffId: "s_1", email: null, minutes: 3, at },
  "reconciliation.difference": { day: "2026-11-27", currency: "USD", differenceMinor: -1_250n },
  "import.finished": { source: "orders", startedAt: at, orders: 1_204 },
  "import.stuck": { source: "orders", lastProgressAt: at, idleMinutes: 16, ordersSoFar: 300, lastError: null },
  "upstream.key_refused": { status: 401, keyName: "ordering", lookup: "k_abc", since: at },
  "upstream.budget_exhausted": { began: at, minutes: 3, cap: 120 },
  "catalog.changed": {
    staffId: "s-1",
    changes: [
      {
        id: "c-1",
        productId: "prd_1",
        productName: "Blue Harbor Coffee Gift Card – United States",
        change: "price_rise",
        variantLabel: "$25",
        oldPriceMinor: "2450",
        newPriceMinor: "2573",
        currency: "USD",
        percent: "5.00",
      },
    ],
  },
  "books.journal_ready": {
    period: "2026-10",
    format: "xero",
    token: "sealed.token",
    expiresAt: "2026-11-08T00:01:00.000Z",
    recipientIds: ["s_fin"],
  },
};

describe("notification kinds are whole definitions", () => {
  test.each(NOTIFICATION_KINDS)("%s has a label, roles, a payload schema, an event key and a composer", (kind) => {
    expect(gaps(KIND_DEFINITIONS[kind])).toEqual([]);
  });

  test("a kind without a composer, a schema or an event key is found incomplete", () => {
    const whole = KIND_DEFINITIONS["orders.failed"];
    const rest: Partial<KindDefinition> = { label: whole.label, roles: whole.roles, to: whole.to, audience: whole.audience };
    expect(gaps(rest)).toEqual(["no payload schema", "no event key", "no composer"]);
    expect(
      gaps({
        ...rest,
        payload: z.object({}),
        eventKey: () => "k",
        compose: () => ({ title: "t", link: "/" }),
        audience: undefined,
      }),
    ).toEqual(["sent to named people, but names nobody"]);
  });

  test.each(NOTIFICATION_KINDS)(
    "%s words its example for every channel: a title, an app link, an event key of its own",
    (kind) => {
      const definition: KindDefinition = KIND_DEFINITIONS[kind];
      const facts: unknown = definition.payload.parse(EXAMPLES[kind]);
      const composed = definition.compose(facts);
      expect(composed.title.trim()).not.toBe("");
      expect(composed.link).toMatch(/^\//);
      expect(definition.eventKey(facts)).toMatch(/^[a-z_.]+:./);
    },
  );

  test("a payload that does not fit its kind is refused", () => {
    expect(KIND_DEFINITIONS["wallet.low_balance"].payload.safeParse({ currency: "USD", availableMinor: "812.40" }).success).toBe(
      false,
    );
  });
});

describe("the preferences list the kinds of the one table", () => {
  test("Settings' workspace defaults list every kind of the table, in its order, with its label", () => {
    expect(workspaceKindOptions().map(({ kind, label }) => ({ kind, label }))).toEqual(
      NOTIFICATION_KINDS.map((kind) => ({ kind, label: KIND_DEFINITIONS[kind].label })),
    );
  });

  test.each(ROLES)("a person's own choices (%s) list exactly the kinds whose roles hold theirs", (role) => {
    expect(kindOptionsFor([role]).map((option) => option.kind)).toEqual(
      NOTIFICATION_KINDS.filter((kind) => (KIND_DEFINITIONS[kind].roles as readonly string[]).includes(role)),
    );
  });
});
