import { createDecipheriv, createSecretKey, hkdfSync, type KeyObject } from "node:crypto";
import { decode as nextAuthDecode, getToken, type JWT, type JWTDecodeParams } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { getEnv, usesSecureCookies } from "@/lib/env";

/**
 * next-auth's session-cookie decode (a JWE, `dir` + `A256GCM`, key = HKDF-SHA256 of the secret),
 * with the derived key kept per secret instead of derived again on every request: next-auth
 * derives it each time, on the thread pool, and the request gate and the page both decode the cookie
 * of every page view. It is kept as a KeyObject, which createDecipheriv would otherwise make
 * from a Buffer on every call. Same checks as next-auth's (jose's): the header, the GCM tag
 * over the header, the expiry with 15 s of tolerance. Anything else is null, as next-auth's decode
 * failing is "no session".
 */
const CLOCK_TOLERANCE_S = 15;
const keys = new Map<string, KeyObject>();

function keyFor(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    // next-auth v4: hkdf("sha256", secret, salt "", "NextAuth.js Generated Encryption Key", 32)
    key = createSecretKey(Buffer.from(hkdfSync("sha256", secret, "", "NextAuth.js Generated Encryption Key", 32)));
    keys.set(secret, key);
  }
  return key;
}

export async function decodeSessionToken(params: JWTDecodeParams): Promise<JWT | null> {
  const { token, secret, salt } = params;
  if (!token) return null;
  if (salt) return nextAuthDecode(params); // not a session cookie: another key
  const parts = token.split(".");
  if (parts.length !== 5) return null;
  const [header, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  try {
    const protectedHeader = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as Record<string, unknown>;
    if (protectedHeader.alg !== "dir" || protectedHeader.enc !== "A256GCM" || protectedHeader.zip !== undefined) return null;
    if (encryptedKey !== "") return null;
    const ivBytes = Buffer.from(iv, "base64url");
    const tagBytes = Buffer.from(tag, "base64url");
    if (ivBytes.length !== 12 || tagBytes.length !== 16) return null;
    const decipher = createDecipheriv("aes-256-gcm", keyFor(typeof secret === "string" ? secret : secret.toString()), ivBytes, {
      authTagLength: 16,
    });
    decipher.setAAD(Buffer.from(header, "ascii"));
    decipher.setAuthTag(tagBytes);
    const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]);
    const payload = JSON.parse(plain.toString("utf8")) as JWT & { exp?: unknown; nbf?: unknown };
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp !== "number" || payload.exp <= now - CLOCK_TOLERANCE_S) return null;
    if (typeof payload.nbf === "number" && payload.nbf > now + CLOCK_TOLERANCE_S) return null;
    return payload;
  } catch {
    return null; // not base64url, not JSON, or the tag does not verify (tampered, other secret)
  }
}

/**
 * The session id the signed session cookie names, or null (no cookie, or one that does not
 * verify). Read from the cookies alone (a store with `getAll`, as Next's request cookies are):
 * getToken would otherwise take a bearer token from Authorization instead. Shared by the
 * request gate (lib/http/gate.ts) and the session of a render or handler (lib/auth/current.ts).
 */
export async function cookieSessionId(cookies: { getAll(): { name: string; value: string }[] }): Promise<string | null> {
  const env = getEnv();
  const req = { headers: new Headers(), cookies } as unknown as NextRequest;
  const token = await getToken({
    req,
    secret: env.AUTH_SECRET,
    secureCookie: usesSecureCookies(env),
    decode: decodeSessionToken,
  });
  return typeof token?.sid === "string" ? token.sid : null;
}
