import { describe, expect, test } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/auth/password";

describe("password hashing", () => {
  test("a hash is argon2id and never contains the password", async () => {
    const hash = await hashPassword("a long enough password");
    expect(hash.startsWith("$argon2id$")).toBe(true);
    expect(hash).not.toContain("a long enough password");
  });

  test("the right password verifies and a wrong one does not", async () => {
    const hash = await hashPassword("a long enough password");
    expect(await verifyPassword(hash, "a long enough password")).toBe(true);
    expect(await verifyPassword(hash, "a long enough passworD")).toBe(false);
  });

  test("the same password hashes differently each time (salted)", async () => {
    expect(await hashPassword("same password here")).not.toBe(await hashPassword("same password here"));
  });

  test("a malformed stored hash fails closed instead of throwing", async () => {
    expect(await verifyPassword("not-a-hash", "anything")).toBe(false);
  });
});
