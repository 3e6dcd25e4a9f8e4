import { describe, expect, it } from "vitest";
import { needsAttention, orderedErrors, outcomeSummary, rowOutcome, rowReason } from "@/lib/bulk-orders/bulk-outcome";
import type { BulkRowView } from "@/lib/bulk-orders/bulk-view";

let next = 1;
function row(over: Partial<BulkRowView>): BulkRowView {
  return {
    rowNumber: next++,
    state: "placed",
    cells: { productId: "prd_1", variantId: "var_1", value: "", quantity: "1", clientReference: `ref-${next}`, phoneNumber: "" },
    productName: "Card",
    optionLabel: "$10",
    quotedTotalMinor: "1000",
    currency: "USD",
    errors: null,
    orderId: `ord_${next}`,
    orderStatus: "fulfilled",
    errorCode: null,
    errorMessage: null,
    correlationId: null,
    ...over,
  };
}

describe("bulk outcome", () => {
  it("a placed row whose order failed upstream counts as failed with its funds released, not as done", () => {
    const rows = [...Array.from({ length: 43 }, () => row({})), row({ orderStatus: "failed" }), row({ orderStatus: "failed" })];
    expect(outcomeSummary({ rows })).toBe("43 fulfilled · 2 failed (funds released)");
    expect(rows.filter(needsAttention)).toHaveLength(2);
    expect(rowReason(rows[44]!)).toMatch(/funds were released/);
  });

  it("rows never sent say why, invalid rows are left out of the count, open orders are processing", () => {
    const rows = [
      row({
        state: "failed",
        orderId: null,
        orderStatus: null,
        errorCode: "price_changed",
        errorMessage: "The price rose above the previewed total.",
      }),
      row({
        state: "skipped",
        orderId: null,
        orderStatus: null,
        errors: { variantId: ["Not a variant of this product."] },
        errorCode: "invalid_row",
      }),
      row({ orderStatus: "processing" }),
      row({ state: "skipped", orderId: null, orderStatus: null, errorCode: "cancelled" }),
    ];
    expect(outcomeSummary({ rows })).toBe("1 not placed (nothing bought) · 1 processing · 1 cancelled");
    expect(rowReason(rows[0]!)).toBe("The price rose above the previewed total.");
    expect(rowOutcome(rows[1]!)).toBe("invalid");
    expect(rows.map(needsAttention)).toEqual([true, true, false, false]);
  });

  it("says a row's product problem first, in the file's column order, however the stored errors are ordered", () => {
    const invalid = row({
      state: "skipped",
      orderId: null,
      orderStatus: null,
      errorCode: "invalid_row",
      errors: { quantity: ["The quantity must be at least 1."], productId: ["This product is unavailable right now."] },
    });
    expect(rowReason(invalid)).toBe("This product is unavailable right now. The quantity must be at least 1.");
    expect(orderedErrors({ phoneNumber: ["p"], _row: ["r"], value: ["v"] }).map(([field]) => field)).toEqual([
      "_row",
      "value",
      "phoneNumber",
    ]);
  });
});
