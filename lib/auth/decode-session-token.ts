import { createSecretKey, hkdfSync, type KeyObject } from "node:crypto";
import { jwtDecrypt } from "jose";
import { getToken, type JWT, type JWTDecodeParams } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { getEnv, usesSecureCookies } from "@/lib/env";

/**
 * next-auth v4's session-cookie decode: jose's `jwtDecrypt` of a JWE (`dir` + `A256GCM`, the key
 * HKDF-SHA256 of the secret) with 15 s of clock tolerance, as next-auth's own `decode` does, and
 * an expiry required. Anything that does not decrypt and verify is null, as next-auth's decode
 * failing is "no session".
 *
 * The request gate and the page both decode the cookie of every page view, so two things are
 * kept per secret (and salt): the derived key, as a KeyObject (next-auth derives it again on
 * every call, on the thread pool: about 70–250 µs a decode), and the cookies already verified.
 * A verified cookie's payload is kept until its expiry (plus the tolerance) and answered again
 * without jose: jose itself costs more than a hand-written decrypt on Node 24, where its key
 * check (`util.types.isCryptoKey`) throws and catches an error on every call (about 8 µs).
 * The cookie's text is its own proof: the same text decrypts to the same payload.
 */
const CLOCK_TOLERANCE_S = 15;
/** Verified cookies kept per secret; past it the oldest leaves first (a cookie is about 500 bytes). */
const MAX_VERIFIED = 2_000;

type Verified = { payload: JWT; untilMs: number };
type SessionKey = { key: KeyObject; verified: Map<string, Verified> };
const keys = new Map<string, SessionKey>();

function keyFor(secret: string, salt: string): SessionKey {
  const id = `${salt}\u0000${secret}`;
  let entry = keys.get(id);
  if (!entry) {
    // next-auth v4 (jwt/index.js, getDerivedEncryptionKey): HKDF-SHA256, 32 bytes.
    const info = `NextAuth.js Generated Encryption Key${salt ? ` (${salt})` : ""}`;
    entry = { key: createSecretKey(Buffer.from(hkdfSync("sha256", secret, salt, info, 32))), verified: new Map() };
    keys.set(id, entry);
  }
  return entry;
}

export async function decodeSessionToken(params: JWTDecodeParams): Promise<JWT | null> {
  const { token, secret, salt = "" } = params;
  if (!token) return null;
  const { key, verified } = keyFor(typeof secret === "string" ? secret : secret.toString(), salt);
  const known = verified.get(token);
  if (known && Date.now() < known.untilMs) return known.payload;
  if (known) verified.delete(token);
  try {
    const { payload } = await jwtDecrypt(token, key, {
      clockTolerance: CLOCK_TOLERANCE_S,
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
      requiredClaims: ["exp"],
    });
    const session = Object.freeze(payload) as JWT; // shared by every later decode of this cookie
    // jose's rule: expired once exp <= now - tolerance (in whole seconds).
    verified.set(token, { payload: session, untilMs: (payload.exp! + CLOCK_TOLERANCE_S) * 1000 });
    if (verified.size > MAX_VERIFIED) verified.delete(verified.keys().next().value!);
    return session;
  } catch {
    return null; // not a JWE, another algorithm, tampered, another secret, no expiry or expired
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
