import { describe, expect, test } from "vitest";
import { canMoveOrder, isForward, ORDER_STATUSES, orderMachine, orderStatusLabel, takeOrderStatus } from "@/lib/orders/states";

describe("the order state machine", () => {
  test("every allowed move goes forward, and the mirror takes it even from an older read", () => {
    for (const from of ORDER_STATUSES) {
      for (const to of orderMachine.moves[from]) {
        expect(isForward(from, to), `${from} → ${to}`).toBe(true);
        expect(takeOrderStatus(from, to, false), `${from} → ${to}`).toBe(true);
      }
    }
  });

  test("a move the table lacks is no move, and a backward one is never taken", () => {
    const backward = [
      ["fulfilled", "processing"],
      ["refunded", "fulfilled"],
      ["failed", "reserved"],
      ["processing", "reserved"],
    ] as const;
    for (const [from, to] of backward) {
      expect(canMoveOrder(from, to), `${from} → ${to}`).toBe(false);
      expect(takeOrderStatus(from, to, true), `${from} → ${to}`).toBe(false);
    }
    expect(canMoveOrder("reserved", "refunded")).toBe(false);
    expect(isForward("failed", "fulfilled")).toBe(false);
  });

  test("a newer read wins where the table has no order between the two", () => {
    expect(takeOrderStatus("failed", "fulfilled", true)).toBe(true);
    expect(takeOrderStatus("failed", "fulfilled", false)).toBe(false);
    expect(takeOrderStatus("processing", "processing", true)).toBe(true);
  });

  test("labels come from the table; an unknown status is shown as it is", () => {
    expect(ORDER_STATUSES.map(orderStatusLabel)).toEqual(["Reserved", "Processing", "Fulfilled", "Failed", "Refunded"]);
    expect(orderStatusLabel("on_hold")).toBe("on_hold");
  });
});
