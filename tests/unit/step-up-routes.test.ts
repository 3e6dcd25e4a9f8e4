import path from "node:path";
import { describe, expect, test } from "vitest";
import { discoverApiRoutes } from "../../scripts/discover-api-routes.mjs";

/**
 * Every state-changing route (each POST, PUT, PATCH and DELETE under app/api, found from the
 * files) with its step-up choice: `true` when the door asks for a recent proof
 * (`withStaff(…, { stepUp: true })`), else why it does not. The rule: whatever changes money,
 * limits, quotas, where notifications go, people or how they sign in asks for it. A new route
 * fails here until someone decides.
 */
const STEP_UP: Record<string, true | string> = {
  // Not a staff route: no session to step up.
  "POST /api/[...path]": "no such endpoint: 404",
  "PUT /api/[...path]": "no such endpoint: 404",
  "PATCH /api/[...path]": "no such endpoint: 404",
  "DELETE /api/[...path]": "no such endpoint: 404",
  "POST /api/auth/[...nextauth]": "the password sign-in itself",
  "POST /api/invitations/acceptance": "a one-time link proves the visitor",
  "POST /api/password-resets/completion": "a one-time link proves the visitor",
  "POST /api/webhooks/service": "the Issuing Service, proved by its signature",
  // The sign-in step: it is the proof.
  "POST /api/session/proof": "gives the proof",
  "POST /api/session/passkey-options": "the challenge of the proof",

  // Money.
  "POST /api/withdrawals": true,
  "POST /api/withdrawals/[id]/approval": true,
  "POST /api/withdrawals/[id]/rejection": true,
  "POST /api/withdrawals/[id]/cancellation": "stops money going out",
  "POST /api/withdrawals/quotes": "a quote changes nothing",
  "PUT /api/wallet/deposit-address": true,
  "POST /api/spend-requests/[id]/approval": true,
  "POST /api/spend-requests/[id]/rejection": true,
  "POST /api/books/periods/[period]/reopen-approval": true,
  "POST /api/books/periods/[period]/lock": "closes a month: it freezes the books, moving nothing",
  "POST /api/books/periods/[period]/reopen-request": "asks; the second person's approval takes the proof",
  "POST /api/orders": "a buyer's daily work, held by the spend limits and their approvals",
  "POST /api/quotes": "a quote changes nothing",
  "POST /api/bulk-orders": "an upload: nothing is ordered before its confirmation",
  "POST /api/bulk-orders/[id]/confirm": "a buyer's daily work, held by the spend limits and their approvals",
  "POST /api/bulk-orders/[id]/cancel": "stops orders",
  "POST /api/orders/[id]/reveal": "asks in the handler (lib/reveal/step-up.ts): the password may come with the reveal",

  // Limits, quotas, thresholds and where notifications go.
  "PUT /api/settings": true,
  "PUT /api/settings/notifications": true,
  "PUT /api/books/delivery": true,
  "PUT /api/spend-limits": true,

  // People and sign-in rules.
  "PATCH /api/staff/[id]": true,
  "POST /api/staff/[id]/password-reset-link": true,
  "POST /api/staff/[id]/second-factor-reset": true,
  "POST /api/staff/invitations": true,
  "POST /api/staff/invitations/[id]/link": true,
  "DELETE /api/staff/invitations/[id]": true,
  "PUT /api/settings/second-factor-policy": true,
  "PUT /api/settings/sso": true,

  // One's own factors.
  "POST /api/account/recovery-codes": true,
  "DELETE /api/account/second-factors/[id]": true,
  "POST /api/account/second-factors/totp": true,
  "POST /api/account/second-factors/passkey-options": true,
  // Finishing the enrolment needs the proof still fresh: adding a factor never renews it (enrol.ts).
  "POST /api/account/second-factors/totp/confirmation": true,
  "POST /api/account/second-factors/passkeys": true,
  "PATCH /api/account/second-factors/[id]": "a name for one's own factor: it proves nothing and moves nothing",

  // Neither money nor controls.
  "PUT /api/account/notification-preferences": "one's own email choices",
  "POST /api/catalog/watches": "one's own watch list (an admin's for the workspace tells people of prices, moves nothing)",
  "DELETE /api/catalog/watches/[id]": "one's own watch list",
  "DELETE /api/account/notification-preferences": "one's own email choices",
  "POST /api/notifications/[id]/read": "one's own inbox",
  "POST /api/notifications/read-all": "one's own inbox",
  "POST /api/notifications/opened": "one's own inbox",
  "POST /api/settings/notifications/chat-test": "posts a test to the webhook already set, changing nothing",
  "POST /api/notifications/deliveries/[id]/retry": "sends again what was due, to where it was due",
  "POST /api/events/[id]/reprocess": "applies again what the Issuing Service sent, idempotently",
  "POST /api/settings/order-import": "pauses, resumes or restarts reading the order history",
};

const WRITES = ["POST", "PUT", "PATCH", "DELETE"];

async function stateChangingRoutes(): Promise<{ key: string; stepUp: boolean }[]> {
  const found = [];
  for (const route of discoverApiRoutes()) {
    const handlers = (await import(path.resolve("app", route.file))) as Record<string, { stepUp?: unknown }>;
    for (const method of route.methods.filter((m) => WRITES.includes(m)))
      found.push({ key: `${method} ${route.pattern}`, stepUp: handlers[method]?.stepUp === true });
  }
  return found;
}

describe("step-up on every state-changing route", () => {
  test("each route's door asks for a recent proof exactly where the table says, and the table lists every route", async () => {
    const routes = await stateChangingRoutes();
    const unlisted = routes.filter((r) => !(r.key in STEP_UP)).map((r) => r.key);
    expect(unlisted, "decide whether these routes ask for step-up, and add them to STEP_UP").toEqual([]);
    const gone = Object.keys(STEP_UP).filter((key) => !routes.some((r) => r.key === key));
    expect(gone, "these routes no longer exist: remove them from STEP_UP").toEqual([]);
    const differ = routes.filter((r) => r.stepUp !== (STEP_UP[r.key] === true)).map((r) => `${r.key}: door ${r.stepUp}`);
    expect(differ).toEqual([]);
  }, 60_000);
});
