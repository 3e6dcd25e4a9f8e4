import { describe, expect, test } from "vitest";
import { passwordWeakness } from "@/lib/auth/password-strength";
import { generatedDemoPassword } from "@/lib/staff/seed-demo";

const demoAdmin = { email: "admin@demo.local", name: "Demo Admin" };

describe("the password rule", () => {
  test("says why a weak password is refused", async () => {
    const eve = { email: "eve.adams@example.com", name: "Eve Adams" };
    expect(await passwordWeakness("aaaaaaaaaaaa", eve)).toBe(
      'Too easy to guess. Repeated characters like "aaa" are easy to guess. Use a longer phrase of unrelated words.',
    );
    expect(await passwordWeakness("password1234", eve)).toMatch(
      /^Too easy to guess\. This is similar to a commonly used password\./,
    );
    expect(await passwordWeakness("123456789012", eve)).toMatch(/^Too easy to guess\. This is a commonly used password\./);
    expect(await passwordWeakness(" ".repeat(12), eve)).toMatch(/^Too easy to guess\./);
    expect(await passwordWeakness("eve.adams@example.com", eve)).toBe("It contains your email address: choose something else.");
    expect(await passwordWeakness("my Eve.Adams@Example.com!", eve)).toBe(
      "It contains your email address: choose something else.",
    );
    expect(await passwordWeakness("eve adams 12", eve)).toMatch(/your name or email address/);
  });

  test("a generated demo password passes, and so do the fixed ones the tests and benches sign in with", async () => {
    for (let i = 0; i < 20; i++) expect(await passwordWeakness(generatedDemoPassword(), demoAdmin)).toBeNull();
    // playwright.config.ts, crash-restart.spec.ts, bench/*, tests/support/db.ts's makeStaff, access-links.test.ts
    for (const password of [
      "e2e-demo-password-1",
      "crash-restart-password-1",
      "bench-password-123",
      "correct horse battery staple",
      "a password of my own",
    ])
      expect(await passwordWeakness(password, demoAdmin), password).toBeNull();
  });
});
