import { describe, expect, test } from "vitest";
import { decode, encode } from "next-auth/jwt";
import { decodeSessionToken } from "@/lib/auth/decode-session-token";

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
});
