import { describe, expect, test } from "vitest";
import type { BackgroundWork } from "@/lib/jobs/background-work";
import { markWaitingForWorker as spendWaiting, WAITING_TO_BE_PLACED } from "@/lib/spend/waiting-for-worker";
import type { SpendRequestView } from "@/lib/spend/spend-request-view";
import { markWaitingForWorker as withdrawalWaiting, WAITING_TO_BE_SENT } from "@/lib/withdrawals/waiting-for-worker";
import type { WithdrawalView } from "@/lib/withdrawals/withdrawal-view";

const stopped: BackgroundWork = { running: false, lastBeatAt: new Date("2026-11-28T14:02:00Z") };
const running: BackgroundWork = { running: true, lastBeatAt: new Date() };

// Only the fields the rule reads; the rest of a view is carried through unchanged.
const withdrawal = (state: WithdrawalView["state"], stateLabel: string) => ({ id: "wr_1", state, stateLabel }) as WithdrawalView;
const spend = (kind: SpendRequestView["kind"], state: SpendRequestView["state"], stateLabel: string) =>
  ({ id: "sr_1", kind, state, stateLabel }) as SpendRequestView;

describe("an approval that waits for the worker says so while background work is stopped", () => {
  test("an approved withdrawal reads 'Approved, waiting to be sent' while stopped, plain 'Approved' while it runs", () => {
    expect(withdrawalWaiting(withdrawal("approved", "Approved"), stopped)).toMatchObject({
      stateLabel: WAITING_TO_BE_SENT,
      waitsForBackgroundWork: true,
    });
    expect(withdrawalWaiting(withdrawal("approved", "Approved"), running)).toEqual(withdrawal("approved", "Approved"));
  });

  test("a withdrawal already requested, paid or waiting for approval is not relabelled", () => {
    for (const state of ["pending", "requested", "paid", "sending"] as const)
      expect(withdrawalWaiting(withdrawal(state, "x"), stopped)).toEqual(withdrawal(state, "x"));
  });

  test("an order whose placing did not finish waits; one placed at approval does not", () => {
    expect(spendWaiting(spend("order", "approved", "Approved, placing"), stopped)).toMatchObject({
      stateLabel: WAITING_TO_BE_PLACED,
      waitsForBackgroundWork: true,
    });
    expect(spendWaiting(spend("order", "placed", "Placed"), stopped, { justApproved: true })).toEqual(
      spend("order", "placed", "Placed"),
    );
  });

  test("a bulk file just approved waits for the bulk job; in the list, a handed-over file is not guessed at", () => {
    expect(spendWaiting(spend("bulk", "placed", "Placed"), stopped, { justApproved: true }).stateLabel).toBe(
      WAITING_TO_BE_PLACED,
    );
    expect(spendWaiting(spend("bulk", "placed", "Placed"), stopped)).toEqual(spend("bulk", "placed", "Placed"));
    expect(spendWaiting(spend("bulk", "placed", "Placed"), running, { justApproved: true })).toEqual(
      spend("bulk", "placed", "Placed"),
    );
  });
});
