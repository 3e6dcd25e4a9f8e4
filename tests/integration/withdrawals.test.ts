import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { updateSettings } from "@/lib/settings/update-settings";
import { upstream } from "@/lib/upstream/service";
import { approveWithdrawal, rejectWithdrawal } from "@/lib/withdrawals/decide-withdrawal";
import { UNNAMED_DESTINATION } from "@/lib/withdrawals/payout-destination";
import { cancelWithdrawal } from "@/lib/withdrawals/cancel-withdrawal";
import { listWithdrawals } from "@/lib/withdrawals/list-withdrawals";
import { maintainWithdrawals } from "@/lib/withdrawals/maintain-withdrawals";
import { quoteWithdrawal } from "@/lib/withdrawals/quote-withdrawal";
import { requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";
import { RESEND_AFTER_MS } from "@/lib/withdrawals/send-withdrawal";
import { movementEvents } from "@/lib/wallet/movement-events";
import { getBalanceHistory } from "@/lib/wallet/get-balance-history";
import { makeStaff } from "../support/db";
import { control, upstreamGet } from "../support/sandbox";

type UpstreamWithdrawal = { id: string; amount: number; currency: string; status: string };

/** Every upstream withdrawal of exactly this amount (amounts are unique per test). */
async function upstreamWithdrawalsOf(amount: string): Promise<UpstreamWithdrawal[]> {
  const all: UpstreamWithdrawal[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: UpstreamWithdrawal[]; nextCursor: string | null } = await upstreamGet(
      `/withdrawals?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
    );
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all.filter((w) => w.amount.toFixed(2) === amount);
}

let nextCents = 1000 + Math.floor(Math.random() * 500) * 100;
/** A fresh amount in USD (10.00 and up, distinct cents) so each test finds its own withdrawals. */
function freshAmount(): string {
  nextCents += 1;
  return (nextCents / 100 + 10).toFixed(2);
}

const reason = "Monthly sweep of unused funds";

const PAYOUT = "Acme Trading Ltd · account ending 4821";

beforeAll(async () => {
  await control("POST", "/deposits", { amount: 200_000, currency: "USD" });
  await updateSettings(await makeStaff(["admin"]), { payoutDetailsName: PAYOUT });
});

afterEach(async () => {
  await control("DELETE", "/faults");
});

describe("withdrawals with maker-checker approval", () => {
  test("a request is stored unsent; its requester cannot approve it, even holding both roles; another approver's approval sends it once", async () => {
    const maker = await makeStaff(["finance", "approver"]);
    const checker = await makeStaff(["approver"]);
    const amount = freshAmount();

    const quote = await quoteWithdrawal(maker, { amount, currency: "USD" });
    expect(quote).toMatchObject({ amount, currency: "USD" });
    expect(Number(quote.fee)).toBeGreaterThanOrEqual(1); // 0.5 %, at least 1.00 (sandbox)
    expect(Math.round((Number(quote.fee) + Number(quote.netAmount)) * 100)).toBe(Math.round(Number(amount) * 100));

    const requested = await requestWithdrawal(maker, { amount, currency: "USD", reason });
    expect(requested).toMatchObject({
      state: "pending",
      amount,
      reason,
      requestedBy: { name: maker.name },
      actions: { approve: false, ownRequest: true },
    });
    expect(await upstreamWithdrawalsOf(amount)).toHaveLength(0);

    await expect(approveWithdrawal(maker, requested.id, {})).rejects.toMatchObject({ code: "own_request", status: 403 });
    await expect(rejectWithdrawal(maker, requested.id, { comment: "Rejecting my own" })).rejects.toMatchObject({
      code: "own_request",
    });
    expect(await upstreamWithdrawalsOf(amount)).toHaveLength(0);

    const approved = await approveWithdrawal(checker, requested.id, { comment: "Matches the finance plan" });
    expect(approved).toMatchObject({
      state: "requested",
      decision: "approved",
      decidedBy: { name: checker.name },
      decisionComment: "Matches the finance plan",
    });
    const upstreamOnes = await upstreamWithdrawalsOf(amount);
    expect(upstreamOnes).toHaveLength(1);
    expect(approved.upstreamId).toBe(upstreamOnes[0]!.id);

    // A second click (or a second approver) changes nothing and sends nothing.
    await expect(approveWithdrawal(await makeStaff(["approver"]), requested.id, {})).rejects.toMatchObject({
      code: "not_pending",
      status: 409,
    });
    expect(await upstreamWithdrawalsOf(amount)).toHaveLength(1);

    const actions = (await db().auditEvent.findMany({ where: { targetId: requested.id }, orderBy: { id: "asc" } })).map(
      (a) => a.action,
    );
    expect(actions).toEqual([
      "withdrawal.request",
      "withdrawal.self_approval_refused",
      "withdrawal.self_approval_refused",
      "withdrawal.approve",
      "withdrawal.send",
    ]);
  });

  test("a withdrawal cannot be approved while its destination is not named: 409, still waiting, nothing sent; once named, it can", async () => {
    const admin = await makeStaff(["admin"]);
    const maker = await makeStaff(["finance"]);
    const checker = await makeStaff(["approver"]);
    const amount = freshAmount();
    const requested = await requestWithdrawal(maker, { amount, currency: "USD", reason });
    await updateSettings(admin, { payoutDetailsName: "" });
    try {
      await expect(approveWithdrawal(checker, requested.id, {})).rejects.toMatchObject({
        code: "payout_details_unnamed",
        status: 409,
        message: UNNAMED_DESTINATION,
      });
      const row = await db().withdrawalRequest.findUniqueOrThrow({ where: { id: requested.id } });
      expect(row).toMatchObject({ state: "pending", decidedById: null });
      expect(await upstreamWithdrawalsOf(amount)).toHaveLength(0);
      expect(await db().auditEvent.count({ where: { targetId: requested.id, action: "withdrawal.approve" } })).toBe(0);
    } finally {
      await updateSettings(admin, { payoutDetailsName: PAYOUT });
    }
    expect(await approveWithdrawal(checker, requested.id, {})).toMatchObject({ state: "requested", decision: "approved" });
    expect(await upstreamWithdrawalsOf(amount)).toHaveLength(1);
  });

  test("rejected and expired requests are never sent", async () => {
    const maker = await makeStaff(["finance"]);
    const checker = await makeStaff(["approver"]);
    const [a, b, c] = [freshAmount(), freshAmount(), freshAmount()];

    const toReject = await requestWithdrawal(maker, { amount: a, currency: "USD", reason });
    await expect(rejectWithdrawal(checker, toReject.id, { comment: "" })).rejects.toMatchObject({
      code: "invalid_request",
      fieldErrors: { comment: [expect.any(String)] },
    });
    const rejected = await rejectWithdrawal(checker, toReject.id, { comment: "Not this month" });
    expect(rejected).toMatchObject({ state: "rejected", decision: "rejected", decisionComment: "Not this month" });
    await expect(approveWithdrawal(checker, toReject.id, {})).rejects.toMatchObject({ code: "not_pending" });

    const late = await requestWithdrawal(maker, { amount: b, currency: "USD", reason });
    await db().withdrawalRequest.update({ where: { id: late.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(approveWithdrawal(checker, late.id, {})).rejects.toMatchObject({ code: "approval_expired", status: 409 });
    expect((await db().withdrawalRequest.findUniqueOrThrow({ where: { id: late.id } })).state).toBe("expired");

    const forgotten = await requestWithdrawal(maker, { amount: c, currency: "USD", reason });
    await db().withdrawalRequest.update({ where: { id: forgotten.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await maintainWithdrawals()).expired).toBeGreaterThanOrEqual(1);
    expect((await db().withdrawalRequest.findUniqueOrThrow({ where: { id: forgotten.id } })).state).toBe("expired");

    for (const amount of [a, b, c]) expect(await upstreamWithdrawalsOf(amount)).toHaveLength(0);
    expect(
      await db().auditEvent.count({ where: { action: "withdrawal.expire", targetId: { in: [late.id, forgotten.id] } } }),
    ).toBe(2);
  });

  test("the requested approval window comes from settings", async () => {
    const maker = await makeStaff(["finance"]);
    const view = await requestWithdrawal(maker, { amount: freshAmount(), currency: "USD", reason });
    const hours = (Date.parse(view.expiresAt) - Date.parse(view.requestedAt)) / 3_600_000;
    expect(hours).toBe(24);
  });

  test("an amount above the balance gets the contract's 409 at quote and at request, and nothing is stored", async () => {
    const maker = await makeStaff(["finance"]);
    const { data: balance } = await upstream().getBalance("USD");
    const tooMuch = (balance.availableBalance + 1_000).toFixed(2);
    await expect(quoteWithdrawal(maker, { amount: tooMuch, currency: "USD" })).rejects.toMatchObject({
      code: "withdrawal_above_balance",
      status: 409,
    });
    const before = await db().withdrawalRequest.count();
    await expect(requestWithdrawal(maker, { amount: tooMuch, currency: "USD", reason })).rejects.toMatchObject({
      code: "withdrawal_above_balance",
      status: 409,
    });
    expect(await db().withdrawalRequest.count()).toBe(before);
  });

  test("two requests that each fit but not together: the second is refused before anyone approves", async () => {
    const maker = await makeStaff(["finance"]);
    const { data: balance } = await upstream().getBalance("USD");
    const half = Math.floor(balance.availableBalance * 0.6).toFixed(2);
    const first = await requestWithdrawal(maker, { amount: half, currency: "USD", reason });
    await expect(requestWithdrawal(maker, { amount: half, currency: "USD", reason })).rejects.toMatchObject({
      code: "withdrawal_above_balance",
    });
    await cancelWithdrawal(maker, first.id);
  });

  test("bad input is a field error and changes nothing; roles without the permission get 403", async () => {
    const maker = await makeStaff(["finance"]);
    const viewer = await makeStaff(["viewer"]);
    const buyer = await makeStaff(["buyer", "support"]);
    const before = await db().withdrawalRequest.count();
    for (const input of [
      {},
      { amount: "-5", currency: "USD", reason },
      { amount: "1e9", currency: "USD", reason },
      { amount: "10.001", currency: "USD", reason },
      { amount: "12", currency: "usd", reason },
      { amount: "12", currency: "USD", reason: "" },
      { amount: 12, currency: "USD", reason },
      { amount: "12", currency: "USD", reason, extra: 1 },
    ]) {
      await expect(requestWithdrawal(maker, input)).rejects.toMatchObject({ code: "invalid_request" });
    }
    await expect(requestWithdrawal(maker, { amount: "100.5", currency: "JPY", reason })).rejects.toMatchObject({
      code: "invalid_request",
      fieldErrors: { amount: ["JPY has no decimals."] },
    });
    await expect(requestWithdrawal(viewer, { amount: "20", currency: "USD", reason })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(quoteWithdrawal(buyer, { amount: "20", currency: "USD" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(approveWithdrawal(maker, "wr_doesnotexist00", {})).rejects.toMatchObject({ code: "forbidden" });
    await expect(approveWithdrawal(await makeStaff(["approver"]), "not an id", {})).rejects.toMatchObject({
      code: "invalid_request",
    });
    await expect(approveWithdrawal(await makeStaff(["approver"]), "wr_doesnotexist00", {})).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(listWithdrawals(buyer, {})).rejects.toMatchObject({ code: "forbidden" });
    await expect(listWithdrawals(viewer, { state: "bogus" })).rejects.toMatchObject({ code: "invalid_request" });
    expect(await db().withdrawalRequest.count()).toBe(before);
  });

  test("cancellation: in the app before sending, upstream while it is held, refused once paid; the sandbox clock pays it out", async () => {
    const maker = await makeStaff(["finance"]);
    const checker = await makeStaff(["approver"]);
    const [a, b, c] = [freshAmount(), freshAmount(), freshAmount()];

    const pending = await requestWithdrawal(maker, { amount: a, currency: "USD", reason });
    const cancelledInApp = await cancelWithdrawal(checker, pending.id);
    expect(cancelledInApp).toMatchObject({ state: "cancelled", cancelledBy: { name: checker.name }, upstreamId: null });
    await expect(approveWithdrawal(checker, pending.id, {})).rejects.toMatchObject({ code: "not_pending" });
    expect(await upstreamWithdrawalsOf(a)).toHaveLength(0);

    const held = await approveWithdrawal(
      checker,
      (await requestWithdrawal(maker, { amount: b, currency: "USD", reason })).id,
      {},
    );
    expect(held.state).toBe("requested");
    const cancelledUpstream = await cancelWithdrawal(maker, held.id);
    expect(cancelledUpstream).toMatchObject({ state: "cancelled", cancelledBy: { name: maker.name } });
    expect((await upstreamWithdrawalsOf(b)).map((w) => w.status)).toEqual(["cancelled"]);

    const toPay = await approveWithdrawal(
      checker,
      (await requestWithdrawal(maker, { amount: c, currency: "USD", reason })).id,
      {},
    );
    await control("POST", "/clock/advance", { seconds: 4 * 86_400 });
    await maintainWithdrawals(); // the worker's pass (pages also sync, at most every few seconds)
    const list = await listWithdrawals(maker, { state: "paid" });
    expect(list.items.map((w) => w.id)).toContain(toPay.id);
    expect(list.items.find((w) => w.id === toPay.id)?.paidAt).toBeTruthy();
    await expect(cancelWithdrawal(maker, toPay.id)).rejects.toMatchObject({ code: "not_cancellable", status: 409 });
    expect(await db().auditEvent.count({ where: { action: "withdrawal.paid", targetId: toPay.id } })).toBe(1);
  });

  test("a request paid before the app's cancellation reached the upstream: the upstream's 409 is shown as 'already paid'", async () => {
    const maker = await makeStaff(["finance"]);
    const checker = await makeStaff(["approver"]);
    const sent = await approveWithdrawal(
      checker,
      (await requestWithdrawal(maker, { amount: freshAmount(), currency: "USD", reason })).id,
      {},
    );
    await control("POST", "/clock/advance", { seconds: 4 * 86_400 }); // paid upstream; the app has not looked yet
    await expect(cancelWithdrawal(maker, sent.id)).rejects.toMatchObject({ code: "withdrawal_not_cancellable", status: 409 });
    expect((await db().withdrawalRequest.findUniqueOrThrow({ where: { id: sent.id } })).state).toBe("paid");
  });

  test("an upstream refusal at send time (over balance by then) marks the request failed, never retried", async () => {
    const maker = await makeStaff(["finance"]);
    const checker = await makeStaff(["approver"]);
    const amount = freshAmount();
    const pending = await requestWithdrawal(maker, { amount, currency: "USD", reason });
    const { data: balance } = await upstream().getBalance("USD");
    await control("PUT", "/wallet", { balances: { USD: 5 } });
    try {
      const failed = await approveWithdrawal(checker, pending.id, {});
      expect(failed).toMatchObject({ state: "failed", stateLabel: "Refused upstream" });
      expect(failed.failureMessage).toBeTruthy();
      await maintainWithdrawals();
      expect(await upstreamWithdrawalsOf(amount)).toHaveLength(0);
    } finally {
      await control("PUT", "/wallet", { balances: { USD: balance.availableBalance } });
    }
  });

  test("50 trials with the answer to POST /withdrawals dropped after commit: exactly one upstream withdrawal each", async () => {
    const maker = await makeStaff(["finance"]);
    const checker = await makeStaff(["approver"]);
    for (let trial = 0; trial < 50; trial++) {
      const amount = freshAmount();
      const pending = await requestWithdrawal(maker, { amount, currency: "USD", reason });
      await control("PUT", "/faults", {
        dropResponseAfterCommitRate: 1,
        maxFaults: 1,
        methods: ["POST"],
        pathPrefix: "/api/v1/withdrawals",
      });
      const view = await approveWithdrawal(checker, pending.id, {});
      await control("DELETE", "/faults");
      // The app's recovery: the immediate read, and whatever the worker's pass still does.
      await maintainWithdrawals();
      const upstreamOnes = await upstreamWithdrawalsOf(amount);
      expect(upstreamOnes, `trial ${trial}`).toHaveLength(1);
      const row = await db().withdrawalRequest.findUniqueOrThrow({ where: { id: pending.id } });
      expect({ trial, state: row.state, upstreamId: row.upstreamId, attempts: row.sendAttempts }).toEqual({
        trial,
        state: "requested",
        upstreamId: upstreamOnes[0]!.id,
        attempts: 1,
      });
      expect(view.state).toBe("requested");
    }
    const found = await db().auditEvent.findMany({ where: { action: "withdrawal.send", actorId: checker.staffId } });
    expect(found.filter((a) => (a.details as { foundAfterLostAnswer?: boolean }).foundAfterLostAnswer)).toHaveLength(50);
  });

  test("after a crash mid-send: a send that reached the upstream is found, one that did not is sent once more after the grace period", async () => {
    const maker = await makeStaff(["finance"]);
    const checker = await makeStaff(["approver"]);
    const [landed, lost] = [freshAmount(), freshAmount()];
    const crashed = async (amount: string, sendAt: Date) => {
      const { id } = await requestWithdrawal(maker, { amount, currency: "USD", reason });
      await db().withdrawalRequest.update({
        where: { id },
        data: {
          state: "sending",
          decidedById: checker.staffId,
          decidedAt: sendAt,
          sendStartedAt: sendAt,
          lastSendAt: sendAt,
          sendAttempts: 1,
          leaseUntil: new Date(Date.now() - 1),
        },
      });
      return id;
    };
    // The process sent this one and died before writing the answer down.
    const landedId = await crashed(landed, new Date());
    await upstream().createWithdrawal({ amount: Number(landed), currency: "USD" });
    // This one died before its request left (or it was lost on the way), long enough ago.
    const lostId = await crashed(lost, new Date(Date.now() - RESEND_AFTER_MS - 1000));

    await maintainWithdrawals();
    expect(await upstreamWithdrawalsOf(landed)).toHaveLength(1);
    expect(await upstreamWithdrawalsOf(lost)).toHaveLength(1);
    expect(await db().withdrawalRequest.findUniqueOrThrow({ where: { id: landedId } })).toMatchObject({
      state: "requested",
      sendAttempts: 1,
    });
    expect(await db().withdrawalRequest.findUniqueOrThrow({ where: { id: lostId } })).toMatchObject({
      state: "requested",
      sendAttempts: 2,
    });

    // A recent unanswered send with nothing upstream yet is left alone: it may still land.
    const recent = freshAmount();
    const recentId = await crashed(recent, new Date());
    await maintainWithdrawals();
    expect(await upstreamWithdrawalsOf(recent)).toHaveLength(0);
    expect((await db().withdrawalRequest.findUniqueOrThrow({ where: { id: recentId } })).state).toBe("sending");
    await expect(cancelWithdrawal(maker, recentId)).rejects.toMatchObject({ code: "withdrawal_busy" });
  });

  test("the wallet chart counts a withdrawal from its send, gives it back when cancelled upstream, and ignores unsent requests", async () => {
    const maker = await makeStaff(["finance"]);
    const checker = await makeStaff(["approver"]);
    const from = new Date(Date.now() - 60_000);
    const [sent, cancelled, unsent] = [freshAmount(), freshAmount(), freshAmount()];
    const sentView = await approveWithdrawal(
      checker,
      (await requestWithdrawal(maker, { amount: sent, currency: "USD", reason })).id,
      {},
    );
    const cancelledView = await approveWithdrawal(
      checker,
      (await requestWithdrawal(maker, { amount: cancelled, currency: "USD", reason })).id,
      {},
    );
    await cancelWithdrawal(maker, cancelledView.id);
    await requestWithdrawal(maker, { amount: unsent, currency: "USD", reason });

    const cents = (amount: string) => BigInt(Math.round(Number(amount) * 100));
    const deltas = (await movementEvents({ currency: "USD", since: from }))
      .filter((e) => e.kind === "withdrawal" || e.kind === "withdrawal_release")
      .map((e) => e.deltaMinor);
    expect(deltas).toContain(-cents(sent));
    expect(deltas.filter((d) => d === -cents(cancelled) || d === cents(cancelled))).toHaveLength(2);
    expect(deltas.some((d) => d === -cents(unsent))).toBe(false);
    expect(sentView.state).toBe("requested");

    const history = await getBalanceHistory(maker, { currency: "USD", days: 1 });
    expect(history.movements).toBeGreaterThanOrEqual(3);
  });
});
