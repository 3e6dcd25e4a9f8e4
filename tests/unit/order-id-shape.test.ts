import { describe, expect, test } from "vitest";
import { looksLikeOrderId, looksLikeOrderIdStart } from "@/lib/orders/order-id-shape";

describe("an order id recognised by its shape in the orders search", () => {
  test("the upstream's ids (ord_ and a token) are taken as ids", () => {
    for (const id of ["ord_k3v7q2m9x4b5n6c8d2fa", "ord_e2e_0123456789abcdef0123", "ord_nosuchorder0000", "ord_AbC-12"])
      expect(looksLikeOrderId(id), id).toBe(true);
  });

  test("references, product names and near misses are searched as text", () => {
    for (const text of [
      "",
      "ord_",
      "ord_ab",
      "ORD_k3v7q2m9x4",
      "order 123",
      "ord_k3v7 q2m9",
      "xord_k3v7q2m9",
      "prd_k3v7q2m9",
      "shop-123",
    ])
      expect(looksLikeOrderId(text), text).toBe(false);
    expect(looksLikeOrderId(`ord_${"a".repeat(97)}`)).toBe(false);
  });

  test("the beginning of an id, shorter than one, is matched in the mirror only; a whole id or other text is not such a beginning", () => {
    for (const text of ["ord_", "ord_a", "ord_k3v"]) expect(looksLikeOrderIdStart(text), text).toBe(true);
    for (const text of ["ord_k3v7", "ord_k3v7q2m9x4b5n6c8d2fa", "or", "ORD_k3v", "shop-123", ""])
      expect(looksLikeOrderIdStart(text), text).toBe(false);
  });
});
