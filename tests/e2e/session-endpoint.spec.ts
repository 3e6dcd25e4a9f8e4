import { expect, test, type APIResponse, type BrowserContext, type Page } from "@playwright/test";
import { signInAs, withDb } from "./helpers";

const SESSION_COOKIE = "next-auth.session-token";

/** Sets-Cookie of the session token in a response: none, or one that deletes it. */
function expectNoFreshSessionCookie(res: APIResponse) {
  const sessionCookies = res
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith(`${SESSION_COOKIE}=`));
  for (const cookie of sessionCookies)
    expect(cookie.value).toMatch(new RegExp(`^${SESSION_COOKIE.replace(/\./g, "\\.")}=;.*Max-Age=0`, "i"));
}

async function sessionCookie(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
  expect(cookie).toBeTruthy();
  return cookie!;
}

/** The live session answers with the person; keep its cookie as a thief would. */
async function liveSessionCookie(page: Page, email: string) {
  const live = await page.request.get("/api/auth/session");
  expect(await live.json()).toMatchObject({ user: { email } });
  return sessionCookie(page.context());
}

async function expectEndedSession(page: Page, kept: Awaited<ReturnType<typeof sessionCookie>>) {
  await page.context().addCookies([kept]);
  const res = await page.request.get("/api/auth/session");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({});
  expectNoFreshSessionCookie(res);
  // The cookie is gone from the browser, and the app's own routes refuse it as before.
  expect((await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  await page.context().addCookies([kept]);
  expect((await page.request.get("/api/audit")).status()).toBe(401);
}

test("after sign-out, the kept cookie gets an empty session and no fresh cookie", async ({ page }) => {
  await signInAs(page, "viewer");
  const kept = await liveSessionCookie(page, "viewer@demo.local");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await expectEndedSession(page, kept);
});

test("an idle session gets an empty session at /api/auth/session", async ({ page }) => {
  await signInAs(page, "viewer");
  const kept = await liveSessionCookie(page, "viewer@demo.local");
  await withDb((db) =>
    db.query(
      `UPDATE "StaffSession" s SET "lastSeenAt" = now() - interval '31 minutes' FROM "Staff" st WHERE st.id = s."staffId" AND st.email = 'viewer@demo.local' AND s."endedAt" IS NULL`,
    ),
  );
  await expectEndedSession(page, kept);
});

test("a session revoked on the server (deactivation, password reset) gets an empty session", async ({ page }) => {
  await signInAs(page, "viewer");
  const kept = await liveSessionCookie(page, "viewer@demo.local");
  // What deactivation and a password reset do to every session of the person.
  await withDb((db) => db.query(`UPDATE "Staff" SET "sessionVersion" = "sessionVersion" + 1 WHERE email = 'viewer@demo.local'`));
  await expectEndedSession(page, kept);
});
