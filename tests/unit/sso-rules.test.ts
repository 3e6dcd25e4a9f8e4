import { describe, expect, test } from "vitest";
import { decideAccount, displayName, idpProvedSecondFactor, verifiedEmail } from "@/lib/auth/sso/rules";
import { ssoIssuerAllowed } from "@/lib/env";

describe("single sign-on: whose email counts", () => {
  test("an email counts only when the IdP says it is verified (email_verified true, or Entra's xms_edov)", () => {
    expect(verifiedEmail({ email: " Ana@Example.COM ", email_verified: true })).toEqual({ ok: true, email: "ana@example.com" });
    expect(verifiedEmail({ email: "ana@example.com", xms_edov: true })).toEqual({ ok: true, email: "ana@example.com" });
    for (const claims of [
      { email: "ana@example.com", email_verified: false },
      { email: "ana@example.com" },
      { email: "ana@example.com", email_verified: "true" },
      { email: "not an email", email_verified: true },
      { email_verified: true },
    ])
      expect(verifiedEmail(claims)).toEqual({ ok: false, reason: "unverified" });
  });

  test("an address written with look-alike or other non-ASCII letters is refused before it is lower-cased or matched", () => {
    // U+212A KELVIN SIGN lower-cases to a plain "k": once it signed in as sec-kim-….
    const kelvin = "sec-\u212Aim-ops@example.com";
    expect(kelvin.toLowerCase()).toBe("sec-kim-ops@example.com");
    for (const address of [
      kelvin,
      "sec-kim-ops@ex\u0430mple.com", // Cyrillic а, which NFKC keeps
      "\uFF53ec-kim-ops@example.com", // fullwidth s
      "sec-kim-ops@example.com\u200B", // zero-width space
      "sec-ki\u0301m-ops@example.com", // a combining accent
    ])
      expect(verifiedEmail({ email: address, email_verified: true }), JSON.stringify(address)).toEqual({
        ok: false,
        reason: "email_characters",
      });
    expect(verifiedEmail({ email: "Sec-Kim-Ops@Example.com", email_verified: true })).toEqual({
      ok: true,
      email: "sec-kim-ops@example.com",
    });
  });

  test("an existing account is matched whatever its domain; a deactivated one is refused", () => {
    expect(decideAccount({ active: true }, "ana@anywhere.example", ["sso.example"])).toEqual({ act: "sign_in" });
    expect(decideAccount({ active: true }, "ana@anywhere.example", [])).toEqual({ act: "sign_in" });
    expect(decideAccount({ active: false }, "ana@sso.example", ["sso.example"])).toEqual({
      act: "refuse",
      reason: "deactivated",
    });
  });

  test("no account: created for an allowed domain only (not a subdomain), else refused by domain or as unknown", () => {
    expect(decideAccount(null, "new@sso.example", ["other.example", "sso.example"])).toEqual({ act: "create" });
    expect(decideAccount(null, "new@evil.sso.example", ["sso.example"])).toEqual({ act: "refuse", reason: "domain" });
    expect(decideAccount(null, "new@sso.example.evil", ["sso.example"])).toEqual({ act: "refuse", reason: "domain" });
    expect(decideAccount(null, "new@sso.example", [])).toEqual({ act: "refuse", reason: "unknown_account" });
  });

  test("a new account's name is the IdP's if it is plain text, else the email's local part", () => {
    expect(displayName({ name: "  Ana Lima " }, "ana@sso.example")).toBe("Ana Lima");
    expect(displayName({ name: "Ana\u0000" }, "ana@sso.example")).toBe("ana");
    expect(displayName({}, "ana@sso.example")).toBe("ana");
  });
});

describe("single sign-on: whose second factor counts", () => {
  test("the IdP's amr stands in for ours when it names a second factor (RFC 8176), not a password, SMS or phone call alone", () => {
    for (const amr of [["mfa"], ["pwd", "otp"], ["hwk"], ["swk"], ["pwd", "fpt"], ["face"], ["sc"]])
      expect(idpProvedSecondFactor(amr), amr.join()).toBe(true);
    for (const amr of [["pwd"], ["pwd", "sms"], ["tel"], ["pin", "kba"], [], undefined, "mfa", [1]])
      expect(idpProvedSecondFactor(amr), JSON.stringify(amr)).toBe(false);
  });
});

describe("single sign-on: the issuer's address", () => {
  test("https anywhere, plain http only on loopback", () => {
    expect(ssoIssuerAllowed("https://login.microsoftonline.com/tenant/v2.0")).toBe(true);
    expect(ssoIssuerAllowed("http://127.0.0.1:4663")).toBe(true);
    expect(ssoIssuerAllowed("http://localhost:4663")).toBe(true);
    expect(ssoIssuerAllowed("http://idp.example")).toBe(false);
    expect(ssoIssuerAllowed("http://127.0.0.1.evil.example")).toBe(false);
  });
});
