import { describe, expect, test } from "vitest";
import { isAppError } from "@/lib/errors";
import {
  assertBulkMove,
  assertRowMove,
  BULK_PHASE_LABELS,
  BULK_STATES,
  bulkMachine,
  bulkPhase,
  bulkStatesLeadingTo,
  ROW_STATES,
  rowMachine,
  rowStatesLeadingTo,
} from "@/lib/bulk-orders/states";

describe("a bulk file as a person reads it", () => {
  test('a file whose every row was sent reads "Orders processing" until each of its orders has finished, then "Done"', () => {
    expect(BULK_PHASE_LABELS[bulkPhase("done", 2)]).toBe("Orders processing");
    expect(BULK_PHASE_LABELS[bulkPhase("done", 0)]).toBe("Done");
    // Other states read as they are: a running file says it is placing, a cancelled one that it was cancelled.
    for (const state of BULK_STATES.filter((s) => s !== "done")) expect(bulkPhase(state, 3)).toBe(state);
  });
});

describe("the bulk order state machines", () => {
  test("every allowed bulk move passes; every other is a conflict the person is told about", () => {
    for (const from of BULK_STATES) {
      for (const to of BULK_STATES) {
        if (bulkMachine.moves[from].includes(to)) {
          expect(() => assertBulkMove(from, to)).not.toThrow();
          continue;
        }
        let refusal: unknown;
        try {
          assertBulkMove(from, to);
        } catch (error) {
          refusal = error;
        }
        expect(isAppError(refusal) && refusal.code === "conflict", `${from} → ${to}`).toBe(true);
      }
    }
    expect(() => assertBulkMove("done", "cancelled")).toThrow("This bulk order is done; it cannot be cancelled.");
    expect(() => assertBulkMove("cancelled", "confirmed")).toThrow(
      "This bulk order is cancelled; it cannot be moved to confirmed.",
    );
  });

  test("every allowed row move passes; every other is refused", () => {
    for (const from of ROW_STATES) {
      for (const to of ROW_STATES) {
        if (rowMachine.moves[from].includes(to)) expect(() => assertRowMove(from, to)).not.toThrow();
        else expect(() => assertRowMove(from, to), `${from} → ${to}`).toThrow(`bulk order row cannot move from ${from} to ${to}`);
      }
    }
    expect(() => assertRowMove("placed", "placing")).toThrow();
  });

  test("a conditional update starts from the states that lead to its target", () => {
    expect(bulkStatesLeadingTo("cancelled")).toEqual(["draft", "awaiting_approval", "confirmed", "running"]);
    expect(bulkStatesLeadingTo("confirmed")).toEqual(["draft", "awaiting_approval"]);
    expect(rowStatesLeadingTo("failed")).toEqual(["pending", "placing"]);
    expect(rowStatesLeadingTo("placing")).toEqual(["pending", "placing"]);
  });
});
