import { describe, expect, test } from "vitest";
import { isAppError } from "@/lib/errors";
import { assertWithdrawalMove, WITHDRAWAL_STATES, withdrawalMachine, withdrawalStateWords } from "@/lib/withdrawals/states";

const { moves } = withdrawalMachine;

describe("the withdrawal state machine", () => {
  test("every allowed move passes", () => {
    for (const from of WITHDRAWAL_STATES)
      for (const to of moves[from]) expect(() => assertWithdrawalMove(from, to)).not.toThrow();
  });

  test("every move the table lacks is refused as a conflict", () => {
    for (const from of WITHDRAWAL_STATES) {
      for (const to of WITHDRAWAL_STATES.filter((state) => !moves[from].includes(state))) {
        let refusal: unknown;
        try {
          assertWithdrawalMove(from, to);
        } catch (error) {
          refusal = error;
        }
        expect(isAppError(refusal) && refusal.code === "conflict" && refusal.status === 409, `${from} → ${to}`).toBe(true);
      }
    }
  });

  test("nothing reaches the upstream without approval, and nothing leaves a final state", () => {
    for (const [from, to] of [
      ["pending", "sending"],
      ["pending", "requested"],
      ["rejected", "approved"],
      ["expired", "approved"],
      ["paid", "cancelled"],
      ["failed", "sending"],
      ["unknown", "approved"],
    ] as const) {
      expect(() => assertWithdrawalMove(from, to), `${from} → ${to}`).toThrow();
    }
    for (const final of ["paid", "rejected", "expired", "cancelled", "failed"] as const) expect(moves[final]).toEqual([]);
  });

  test("a refusal names the state in words", () => {
    expect(withdrawalStateWords("sending")).toBe("approved, sending");
    expect(withdrawalStateWords("mystery")).toBe("mystery");
  });
});
