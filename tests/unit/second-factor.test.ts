import { describe, expect, test } from "vitest";
import { deriveKey } from "@/lib/crypto/derive-key";
import { openSecret, sealSecret } from "@/lib/crypto/seal";
import { checkTotp, newTotpSecret, totpCodeAt, TOTP_PERIOD_S } from "@/lib/auth/second-factor/totp";
import {
  hashRecoveryCode,
  looksLikeRecoveryCode,
  newRecoveryCodes,
  normaliseRecoveryCode,
} from "@/lib/auth/second-factor/recovery-codes";
import { mustHaveSecondFactor } from "@/lib/auth/second-factor/policy-rule";

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890" (base32 below), last 6 of the 8 digits.
const RFC_SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const step = TOTP_PERIOD_S * 1000;

describe("TOTP (RFC 6238)", () => {
  test("codes match the RFC's test vectors", () => {
    expect(totpCodeAt(RFC_SEED, 59_000)).toBe("287082");
    expect(totpCodeAt(RFC_SEED, 1_111_111_109_000)).toBe("081804");
    expect(totpCodeAt(RFC_SEED, 1_234_567_890_000)).toBe("005924");
    expect(totpCodeAt(RFC_SEED, 2_000_000_000_000)).toBe("279037");
  });

  test("a code is accepted for its step and one step either side, not two", () => {
    const now = 1_800_000_000_000;
    const secret = newTotpSecret();
    expect(checkTotp(secret, totpCodeAt(secret, now), null, now).ok).toBe(true);
    expect(checkTotp(secret, totpCodeAt(secret, now - step), null, now).ok).toBe(true);
    expect(checkTotp(secret, totpCodeAt(secret, now + step), null, now).ok).toBe(true);
    expect(checkTotp(secret, totpCodeAt(secret, now - 2 * step), null, now)).toEqual({ ok: false, reason: "wrong" });
    expect(checkTotp(secret, totpCodeAt(secret, now + 2 * step), null, now)).toEqual({ ok: false, reason: "wrong" });
  });

  test("a code is refused as reused once its step (or a later one) has been accepted", () => {
    const now = 1_800_000_000_000;
    const secret = newTotpSecret();
    const first = checkTotp(secret, totpCodeAt(secret, now), null, now);
    if (!first.ok) throw new Error("first code refused");
    expect(checkTotp(secret, totpCodeAt(secret, now), first.step, now + 1000)).toEqual({ ok: false, reason: "reused" });
    // The previous step's code, still inside the drift window, is older than the one used: refused too.
    expect(checkTotp(secret, totpCodeAt(secret, now - step), first.step, now)).toEqual({ ok: false, reason: "reused" });
    // The next step's code is new.
    expect(checkTotp(secret, totpCodeAt(secret, now + step), first.step, now + step).ok).toBe(true);
  });

  test("anything but 6 digits is wrong without a lookup", () => {
    const secret = newTotpSecret();
    for (const code of ["", "12345", "1234567", "12a456", " 123456"]) expect(checkTotp(secret, code, null).ok).toBe(false);
  });
});

describe("sealed second-factor secrets (AES-256-GCM)", () => {
  const key = deriveKey("k".repeat(40), "secondFactorSeal");

  test("a sealed secret opens with the same key and row, and shows nothing of the secret", () => {
    const secret = newTotpSecret();
    const sealed = sealSecret(secret, key, "factor-1");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(openSecret(sealed, key, "factor-1")).toBe(secret);
    expect(sealSecret(secret, key, "factor-1")).not.toBe(sealed); // a fresh IV each time
  });

  test("another key, another row, or a changed byte does not open it", () => {
    const sealed = sealSecret("JBSWY3DPEHPK3PXP", key, "factor-1");
    expect(() => openSecret(sealed, deriveKey("x".repeat(40), "secondFactorSeal"), "factor-1")).toThrow(/does not open/);
    expect(() => openSecret(sealed, key, "factor-2")).toThrow(/does not open/);
    const [v, iv, tag, ct] = sealed.split(".");
    const flipped = Buffer.from(ct!, "base64url");
    flipped[0]! ^= 1;
    expect(() => openSecret([v, iv, tag, flipped.toString("base64url")].join("."), key, "factor-1")).toThrow(/does not open/);
    expect(() => openSecret("v0.a.b.c", key, "factor-1")).toThrow(/unknown format/);
  });

  test("key derivation is fixed (a restart opens what was sealed before)", () => {
    expect(deriveKey("k".repeat(40), "secondFactorSeal").equals(key)).toBe(true);
    expect(key).toHaveLength(32);
  });
});

describe("recovery codes", () => {
  test("ten distinct codes of 50 random bits, written xxxxx-xxxxx", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
      expect(looksLikeRecoveryCode(code)).toBe(true);
    }
  });

  test("the stored hash ignores case, spaces and dashes, and differs per code", () => {
    expect(normaliseRecoveryCode(" AbCde-FGhij ")).toBe("abcdefghij");
    expect(hashRecoveryCode("abcde-fghij")).toBe(hashRecoveryCode("ABCDE FGHIJ"));
    expect(hashRecoveryCode("abcde-fghij")).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode("abcde-fghij")).not.toBe(hashRecoveryCode("abcde-fghik"));
  });
});

describe("the second-factor policy", () => {
  test("a person must have a second factor when any of their roles is required", () => {
    expect(mustHaveSecondFactor(["viewer"], { roles: ["admin", "buyer"] })).toBe(false);
    expect(mustHaveSecondFactor(["viewer", "buyer"], { roles: ["admin", "buyer"] })).toBe(true);
    expect(mustHaveSecondFactor(["admin"], { roles: [] })).toBe(false);
  });
});
