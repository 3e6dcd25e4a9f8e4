import { afterEach, describe, expect, test, vi } from "vitest";
import { EncryptJWT } from "jose";
import { decode, encode } from "next-auth/jwt";
import { decodeSessionToken } from "@/lib/auth/session-token";

const SECRET = "unit-test-secret-0123456789abcdefghijklmnopqrstuv";
const OTHER_SECRET = "another-secret-0123456789abcdefghijklmnopqrstuvwx";

/** Flips one character of a base64url segment of the token (index: 0 header … 4 tag). */
function tamper(token: string, segment: number): string {
  const parts = token.split(".");
  const s = parts[segment]!;
  parts[segment] = (s[0] === "A" ? "B" : "A") + s.slice(1);
  return parts.join(".");
}

describe("the session cookie decode", () => {
  test("reads what next-auth wrote, exactly as next-auth reads it", async () => {
    const token = await encode({ token: { sid: "sess_1", sub: "staff_1" }, secret: SECRET, maxAge: 3600 });
    const ours = await decodeSessionToken({ token, secret: SECRET });
    expect(ours).toEqual(await decode({ token, secret: SECRET }));
    expect(ours).toMatchObject({ sid: "sess_1", sub: "staff_1" });
  });

  test("a cookie sealed with another secret, or changed anywhere, is no session", async () => {
    const token = await encode({ token: { sid: "sess_1" }, secret: SECRET, maxAge: 3600 });
    expect(await decodeSessionToken({ token, secret: OTHER_SECRET })).toBeNull();
    for (const segment of [0, 2, 3, 4])
      expect(await decodeSessionToken({ token: tamper(token, segment), secret: SECRET })).toBeNull();
    expect(await decodeSessionToken({ token: token.split(".").slice(0, 4).join("."), secret: SECRET })).toBeNull();
    expect(await decodeSessionToken({ token: "not-a-token", secret: SECRET })).toBeNull();
    expect(await decodeSessionToken({ token: "", secret: SECRET })).toBeNull();
  });

  test("an expired cookie is no session (beyond next-auth's 15 s of clock tolerance)", async () => {
    const expired = await encode({ token: { sid: "sess_1" }, secret: SECRET, maxAge: -60 });
    expect(await decodeSessionToken({ token: expired, secret: SECRET })).toBeNull();
    const justNow = await encode({ token: { sid: "sess_1" }, secret: SECRET, maxAge: -5 });
    expect(await decodeSessionToken({ token: justNow, secret: SECRET })).toMatchObject({ sid: "sess_1" });
  });

  test("a header naming another algorithm is refused even before decryption", async () => {
    const token = await encode({ token: { sid: "sess_1" }, secret: SECRET, maxAge: 3600 });
    const parts = token.split(".");
    parts[0] = Buffer.from(JSON.stringify({ alg: "dir", enc: "A128GCM" })).toString("base64url");
    expect(await decodeSessionToken({ token: parts.join("."), secret: SECRET })).toBeNull();
  });

  test("a cookie read once still expires: the second read after its expiry is no session", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const token = await encode({ token: { sid: "sess_1" }, secret: SECRET, maxAge: 60 });
    expect(await decodeSessionToken({ token, secret: SECRET })).toMatchObject({ sid: "sess_1" });
    vi.setSystemTime(Date.now() + 60_000 + 14_000);
    expect(await decodeSessionToken({ token, secret: SECRET })).toMatchObject({ sid: "sess_1" });
    vi.setSystemTime(Date.now() + 2_000);
    expect(await decodeSessionToken({ token, secret: SECRET })).toBeNull();
    expect(await decode({ token, secret: SECRET }).catch(() => null)).toBeNull(); // and next-auth agrees
  });

  test("a cookie without an expiry is no session", async () => {
    const key = new Uint8Array(
      await crypto.subtle.deriveBits(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: new Uint8Array(),
          info: new TextEncoder().encode("NextAuth.js Generated Encryption Key"),
        },
        await crypto.subtle.importKey("raw", new TextEncoder().encode(SECRET), "HKDF", false, ["deriveBits"]),
        256,
      ),
    );
    const token = await new EncryptJWT({ sid: "sess_1" }).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).encrypt(key);
    expect(await decode({ token, secret: SECRET })).toMatchObject({ sid: "sess_1" }); // next-auth alone would take it
    expect(await decodeSessionToken({ token, secret: SECRET })).toBeNull();
  });
});

afterEach(() => {
  vi.useRealTimers();
});
