import { afterEach, describe, expect, test, vi } from "vitest";
import { deriveKey } from "@/lib/crypto/derive-key";
import { openToken, sealToken } from "@/lib/crypto/sealed-token";

const MATERIAL = "k".repeat(40);

describe("derived keys", () => {
  // The keys the release before lib/crypto derived (HKDF-SHA256, no salt, each use's own info):
  // a secret sealed then must still open.
  test("each purpose keeps the key it had, so what was sealed before still opens", () => {
    expect(deriveKey(MATERIAL, "secondFactorSeal").toString("hex")).toBe(
      "41c49a72efcbc5cce3e0f4c02457a31a4ea4ede79401720beaf848cea0cb427d",
    );
    expect(deriveKey(MATERIAL, "chatWebhook").toString("hex")).toBe(
      "4a099ca3dfbb1590f6b744591e9b69d9169594304e4b0168ba582702fec88fd8",
    );
    expect(deriveKey(MATERIAL, "ssoFlow").toString("hex")).toBe(
      "f37394d6814851490820389a9b2a7a0ca522495e11fbfa3e9d6b94f2209d7476",
    );
  });

  test("another material gives another key", () => {
    expect(deriveKey("x".repeat(40), "ssoFlow").equals(deriveKey(MATERIAL, "ssoFlow"))).toBe(false);
  });
});

describe("sealed tokens", () => {
  const key = deriveKey(MATERIAL, "ssoFlow");

  test("a sealed token opens with its key, and shows nothing of its payload", async () => {
    const token = await sealToken({ verifier: "pkce-verifier-123" }, key, 600);
    expect(token).not.toContain("pkce-verifier-123");
    expect(await openToken(token, key)).toMatchObject({ verifier: "pkce-verifier-123" });
  });

  test("another key, a changed byte or an expired token does not open", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const token = await sealToken({ verifier: "v" }, key, 600);
    expect(await openToken(token, deriveKey(MATERIAL, "chatWebhook"))).toBeNull();
    const parts = token.split(".");
    parts[3] = (parts[3]![0] === "A" ? "B" : "A") + parts[3]!.slice(1);
    expect(await openToken(parts.join("."), key)).toBeNull();
    expect(await openToken("not-a-token", key)).toBeNull();
    vi.setSystemTime(Date.now() + 601_000);
    expect(await openToken(token, key)).toBeNull();
  });
});

afterEach(() => {
  vi.useRealTimers();
});
