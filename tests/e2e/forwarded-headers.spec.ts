import { expect, test, type APIRequestContext } from "@playwright/test";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { withDb } from "./helpers";

/**
 * With TRUSTED_PROXIES unset (as here), nothing a client writes in X-Forwarded-* or in the
 * header our server uses for the socket peer decides its address or widens the Origin check.
 */
const SPOOFED = {
  "x-forwarded-for": "203.0.113.77",
  "x-real-ip": "203.0.113.78",
  "x-backoffice-peer-address": "198.51.100.5",
  "x-forwarded-host": "evil.example",
  "x-forwarded-proto": "https",
};
const LOOPBACK = ["127.0.0.1", "::1"];

async function postSignIn(request: APIRequestContext, email: string, password: string, origin = E2E_ORIGIN) {
  const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  return request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password, json: "true" },
    headers: { ...SPOOFED, origin },
    maxRedirects: 0,
  });
}

test("a spoofed X-Forwarded-For changes neither the sign-in throttle's source nor the audit IP", async ({ request }) => {
  const stranger = `spoof-${Date.now()}@demo.local`;
  await postSignIn(request, stranger, "not the password");
  await postSignIn(request, "support@demo.local", DEMO_PASSWORD);

  const failed = await withDb((db) =>
    db.query(`SELECT ip FROM "AuditEvent" WHERE action = 'auth.sign_in_failed' AND "actorEmail" = $1`, [stranger]),
  );
  expect(failed.rows).toHaveLength(1);
  expect(LOOPBACK).toContain(failed.rows[0].ip);
  const signedIn = await withDb((db) =>
    db.query(
      `SELECT ip FROM "AuditEvent" WHERE action = 'auth.sign_in' AND "actorEmail" = 'support@demo.local' ORDER BY id DESC LIMIT 1`,
    ),
  );
  expect(LOOPBACK).toContain(signedIn.rows[0].ip);

  const spoofedKeys = await withDb((db) =>
    db.query(`SELECT key FROM "SignInThrottle" WHERE key = ANY($1)`, [["ip:203.0.113.77", "ip:203.0.113.78", "ip:198.51.100.5"]]),
  );
  expect(spoofedKeys.rows).toEqual([]);
  const peerKey = await withDb((db) =>
    db.query(`SELECT key FROM "SignInThrottle" WHERE key = ANY($1)`, [LOOPBACK.map((ip) => `ip:${ip}`)]),
  );
  expect(peerKey.rows.length).toBeGreaterThan(0);
});

test("a spoofed X-Forwarded-Host does not widen the Origin check", async ({ request }) => {
  const signIn = await postSignIn(request, "support@demo.local", DEMO_PASSWORD, "https://evil.example");
  expect(signIn.status()).toBe(403);
  expect(await signIn.json()).toMatchObject({ code: "bad_origin" });

  // A staff route, signed in (else the request gate answers 401 before any Origin check).
  expect((await postSignIn(request, "admin@demo.local", DEMO_PASSWORD)).status()).toBe(200);
  const staffRoute = await request.post("/api/staff/invitations", {
    data: { email: "x@y.z", name: "X", roles: ["admin"] },
    headers: { ...SPOOFED, origin: "https://evil.example" },
  });
  expect(staffRoute.status()).toBe(403);
  expect(await staffRoute.json()).toMatchObject({ code: "bad_origin" });
});
