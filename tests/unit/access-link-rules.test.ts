import { describe, expect, test } from "vitest";
import { composeLinkEmail } from "@/lib/staff/access-links/link-email";
import {
  ACCESS_LINK_HOURS,
  LINK_TOKEN_PATTERN,
  hashLinkToken,
  linkExpiry,
  linkState,
  linkUrl,
  newLinkToken,
} from "@/lib/staff/access-links/link-rules";

describe("one-time link rules", () => {
  test("a token is 256 random bits in base64url, stored as its SHA-256 (fixed vector)", () => {
    const { token, tokenHash } = newLinkToken();
    expect(token).toMatch(LINK_TOKEN_PATTERN);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(tokenHash).toBe(hashLinkToken(token));
    expect(newLinkToken().token).not.toBe(token);
    expect(hashLinkToken("A".repeat(43))).toBe("0f007385b6f9d4b7eeb2748605afe1a984a0a3bfa3f014d09e2a784ce9e5cd1a");
  });

  test("the link leads to its purpose's public page on the app's address", () => {
    const token = "A".repeat(43);
    expect(linkUrl("https://office.example.com", "invitation", token)).toBe(
      `https://office.example.com/signin/invitation/${token}`,
    );
    expect(linkUrl("http://localhost:3000/", "password_reset", token)).toBe(
      `http://localhost:3000/signin/reset-password/${token}`,
    );
  });

  test("an invitation works 72 hours, a reset link 24", () => {
    const from = new Date("2026-11-27T12:00:00.000Z");
    expect(ACCESS_LINK_HOURS).toEqual({ invitation: 72, password_reset: 24 });
    expect(linkExpiry("invitation", from).toISOString()).toBe("2026-11-30T12:00:00.000Z");
    expect(linkExpiry("password_reset", from).toISOString()).toBe("2026-11-28T12:00:00.000Z");
  });

  test("a link is live until used, revoked or at its expiry; used wins over the others", () => {
    const now = new Date("2026-11-27T12:00:00.000Z");
    const live = { usedAt: null, revokedAt: null, expiresAt: new Date(now.getTime() + 1) };
    expect(linkState(null, now)).toBe("unknown");
    expect(linkState(live, now)).toBe("live");
    expect(linkState({ ...live, expiresAt: now }, now)).toBe("expired");
    expect(linkState({ ...live, revokedAt: now }, now)).toBe("revoked");
    expect(linkState({ ...live, usedAt: now, revokedAt: now, expiresAt: now }, now)).toBe("used");
  });
});

describe("the email of a one-time link", () => {
  const invitation = {
    purpose: "invitation" as const,
    name: "Ivy",
    url: "https://backoffice.example/signin/invitation/t",
    expiresAt: new Date("2026-12-01T10:00:00Z"),
    from: "Ada Admin",
  };

  test("an invitation asks for a password, or, while passwords are off, to sign in with the IdP", () => {
    expect(composeLinkEmail(invitation).text).toContain("Open this link to set your password");
    const bySso = composeLinkEmail({ ...invitation, signInWith: "Okta" });
    expect(bySso.text).toContain("which you sign in to with Okta. Open this link and sign in with it as this address");
    expect(bySso.text).not.toContain("password");
    expect(bySso.html).toContain(">Open your invitation</a>");
  });
});
