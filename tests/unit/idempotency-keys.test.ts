import { describe, expect, test } from "vitest";
import { clientOrderKey, isDerivedKey, MAX_KEY_LENGTH, spendApprovalKey, spendRequestOfKey } from "@/lib/idempotency/keys";

const staffId = "0b9c1a52-6d0e-4c55-9a51-3f1a2b7c9d10";

describe("idempotency keys: the app's and the clients' never meet", () => {
  test("a client's key is kept under its person, whatever it says", () => {
    expect(clientOrderKey(staffId, "spend-sr_AAAAAAAAAAAAAAAA-1")).toBe(`client:${staffId}:spend-sr_AAAAAAAAAAAAAAAA-1`);
    for (const key of ["spend-sr_x-1", "bulk-abc-2", "k", "client:someone-else:k"])
      expect(isDerivedKey(clientOrderKey(staffId, key))).toBe(false);
    expect(clientOrderKey(staffId, "k")).not.toBe(clientOrderKey("1f9c1a52-6d0e-4c55-9a51-3f1a2b7c9d10", "k"));
  });

  test("a key too long to prefix is hashed within the contract's 128 characters, distinct from any short key", () => {
    const long = "x".repeat(128);
    const key = clientOrderKey(staffId, long);
    expect(key.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
    expect(key).toMatch(/^client-sha256:/);
    expect(key).toBe(clientOrderKey(staffId, long));
    expect(key).not.toBe(clientOrderKey(staffId, "x".repeat(127)));
    for (const n of [1, 84, 85, 128]) expect(clientOrderKey(staffId, "y".repeat(n)).length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
  });

  test("derived keys have their own form", () => {
    expect(spendApprovalKey("sr_AAAAAAAAAAAAAAAA", 2)).toBe("spend-sr_AAAAAAAAAAAAAAAA-2");
    expect(isDerivedKey("spend-sr_AAAAAAAAAAAAAAAA-2")).toBe(true);
    expect(isDerivedKey("bulk-5f0e-3")).toBe(true);
  });

  test("an approved order's key leads back to its request (ids may hold dashes); no other key does", () => {
    expect(spendRequestOfKey(spendApprovalKey("sr_a-b_c-d", 12))).toBe("sr_a-b_c-d");
    for (const key of ["bulk-5f0e-3", clientOrderKey(staffId, "spend-sr_x-1"), "spend-sr_x", "spend--1"])
      expect(spendRequestOfKey(key)).toBeNull();
  });
});
