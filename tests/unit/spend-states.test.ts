import { describe, expect, test } from "vitest";
import { isAppError } from "@/lib/errors";
import { assertSpendMove, SPEND_STATES, spendMachine } from "@/lib/spend/states";

describe("the spend approval state machine", () => {
  test("only an approved request can be placed; rejected, expired and withdrawn ones end there", () => {
    expect(spendMachine.leadingTo("placed")).toEqual(["approved"]);
    for (const end of ["rejected", "expired", "cancelled", "placed", "failed"] as const)
      expect(spendMachine.moves[end]).toEqual([]);
  });

  test("a price rise after approval goes back to awaiting, and from there only an approver's decision, time or the buyer move it", () => {
    expect(spendMachine.canMove("approved", "awaiting")).toBe(true);
    expect(spendMachine.moves.awaiting).toEqual(["approved", "rejected", "expired", "cancelled"]);
  });

  test("every move the table lacks is a conflict", () => {
    for (const from of SPEND_STATES) {
      for (const to of SPEND_STATES) {
        if (spendMachine.canMove(from, to)) continue;
        let refusal: unknown;
        try {
          assertSpendMove(from, to);
        } catch (error) {
          refusal = error;
        }
        expect(isAppError(refusal) && refusal.code === "conflict", `${from} → ${to}`).toBe(true);
      }
    }
  });

  test("a refusal names the state in words, as the approver's page labels it", () => {
    expect(spendMachine.words("approved")).toBe("approved, placing");
    expect(spendMachine.words("mystery")).toBe("mystery");
  });
});
