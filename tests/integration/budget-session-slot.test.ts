import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { endSession, rememberedSession, resolveSession } from "@/lib/auth/staff-session";
import { updateStaff } from "@/lib/staff/update-staff";
import { BudgetRefusal } from "@/lib/upstream/client";
import { createDbBudget, spenderKey, type BudgetShares } from "@/lib/upstream/db-budget";
import { confirmingSession, type SessionConfirmation } from "@/lib/upstream/session-slot";
import { spentBy } from "@/lib/upstream/service";
import { makeStaff, uniqueIp } from "../support/db";

/**
 * A catalog read started from a session its process found alive a moment ago is confirmed by
 * its budget slot (one statement): a live session gets its slot, one ended, revoked, disabled,
 * idle or with other roles gets none, and the person's share is not charged for it.
 */
const SHARES: BudgetShares = { moneyReserve: 0, personCalls: 100_000, personLookups: 100_000 };
const from = () => ({ ip: uniqueIp(), userAgent: "vitest" });

async function rememberedFor(roles: string[]) {
  const staff = await makeStaff(roles);
  const result = await signInWithPassword({ email: staff.email, password: staff.password }, from());
  if (!result.ok) throw new Error("sign-in failed");
  expect(await resolveSession(result.sessionId, from())).not.toBeNull();
  const remembered = rememberedSession(result.sessionId, from());
  if (!remembered) throw new Error("the session this process resolved a moment ago is not remembered");
  return { staff, sessionId: result.sessionId, remembered };
}

/** One interactive slot for the person, taken with their session to confirm. */
async function slotConfirming(confirmation: SessionConfirmation) {
  const budget = createDbBudget(100_000, { shares: SHARES });
  const by = spentBy(confirmation.guard);
  const taken = confirmingSession(confirmation, () => budget.acquire({ priority: "interactive", by }, Date.now() + 5_000));
  return taken.then(
    () => "taken" as const,
    (error: unknown) => (error instanceof BudgetRefusal ? error.reason : Promise.reject(error)),
  );
}

async function spentThisMinute(staffId: string): Promise<number> {
  const rows = await db().upstreamSpend.findMany({ where: { spender: spenderKey({ kind: "person", staffId }) } });
  return rows.reduce((sum, row) => sum + row.interactive, 0);
}

describe("a budget slot that confirms the person's session", () => {
  test("a live session gets its slot and is confirmed", async () => {
    const { staff, remembered } = await rememberedFor(["viewer"]);
    const confirmation: SessionConfirmation = { guard: remembered.guard, state: "pending" };
    expect(await slotConfirming(confirmation)).toBe("taken");
    expect(confirmation.state).toBe("confirmed");
    expect(await spentThisMinute(staff.staffId)).toBe(1);
  });

  const endings: [string, (staffId: string, sessionId: string) => Promise<unknown>][] = [
    ["signed out", (_, sessionId) => endSession(sessionId, "signed_out")],
    [
      "signed out everywhere",
      (staffId) => db().staff.update({ where: { id: staffId }, data: { sessionVersion: { increment: 1 } } }),
    ],
    ["disabled", async (staffId) => updateStaff(await makeStaff(["admin"]), staffId, { active: false })],
    ["given other roles", (staffId) => db().staff.update({ where: { id: staffId }, data: { roles: ["support"] } })],
    [
      "idle past the limit",
      (_, sessionId) => db().staffSession.update({ where: { id: sessionId }, data: { lastSeenAt: new Date(0) } }),
    ],
    [
      "past its lifetime",
      (_, sessionId) => db().staffSession.update({ where: { id: sessionId }, data: { createdAt: new Date(0) } }),
    ],
  ];
  for (const [what, end] of endings)
    test(`a session ${what} since gets no slot and its person is not charged`, async () => {
      const { staff, sessionId, remembered } = await rememberedFor(["viewer"]);
      await end(staff.staffId, sessionId);
      const confirmation: SessionConfirmation = { guard: remembered.guard, state: "pending" };
      expect(await slotConfirming(confirmation)).toBe("session");
      expect(confirmation.state).toBe("refused");
      expect(await spentThisMinute(staff.staffId)).toBe(0);
    });

  test("a session that was not resolved alive by this process is not remembered", async () => {
    expect(rememberedSession("00000000-0000-0000-0000-000000000000", from())).toBeNull();
  });
});
