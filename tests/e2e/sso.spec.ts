import { readFile } from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { E2E_OIDC_PORT, E2E_ORIGIN, E2E_SERVER_LOG, E2E_SSO } from "../../playwright.config";
import { startTestIdp, type TestIdp } from "../support/oidc-idp";
import { addStaff, signIn, signInAs, withDb } from "./helpers";

/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider, tests/support/oidc-idp.ts)
 * on loopback: the browser goes to the IdP and back (authorization code with PKCE, which the
 * provider requires), and the app verifies the ID token against the provider's JWKS. The shared
 * app is configured for it (playwright.config.ts, E2E_SSO); this spec starts the provider, and
 * leaves SSO-only mode and the second-factor policy off when it ends.
 */
const KNOWN = "sso-known@demo.local";
const GONE = "sso-gone@demo.local";
const NEWCOMER = "newcomer@sso.example";
const INVITED = "invited@elsewhere.example";
const ACCOUNTS = [
  { login: "known-mfa", email: KNOWN, emailVerified: true, name: "Known Person", amr: ["pwd", "mfa"] },
  { login: "known-pwd", email: KNOWN, emailVerified: true, name: "Known Person", amr: ["pwd"] },
  { login: "newcomer", email: NEWCOMER, emailVerified: true, name: "New Comer", amr: ["pwd", "otp"] },
  { login: "stranger", email: "mallory@elsewhere.example", emailVerified: true, name: "Mallory", amr: ["mfa"] },
  { login: "unverified", email: "unverified@sso.example", emailVerified: false, name: "Not Verified", amr: ["mfa"] },
  { login: "gone", email: GONE, emailVerified: true, name: "Gone Person", amr: ["mfa"] },
  { login: "invited", email: INVITED, emailVerified: true, name: "Named At The IdP", amr: ["pwd", "otp"] },
];

let idp: TestIdp;
const responsesWithSecret: string[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  idp = await startTestIdp({
    port: E2E_OIDC_PORT,
    client: { id: E2E_SSO.clientId, secret: E2E_SSO.clientSecret, redirectUri: `${E2E_ORIGIN}/api/auth/sso/callback` },
    accounts: ACCOUNTS,
  });
  await addStaff(KNOWN, "Known Person", ["viewer"]);
  await addStaff(GONE, "Gone Person", ["viewer"]);
  await withDb((db) => db.query(`UPDATE "Staff" SET active = false WHERE email = $1`, [GONE]));
});

test.afterAll(async () => {
  // Whatever happened above, the specs after this one sign in with passwords.
  await withDb((db) => db.query(`DELETE FROM "Setting" WHERE key = 'ssoOnly'`));
  await idp?.close();
});

async function newPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on("response", async (res) => {
    const body = await res.body().catch(() => Buffer.alloc(0));
    if (body.includes(E2E_SSO.clientSecret) || JSON.stringify(res.headers()).includes(E2E_SSO.clientSecret))
      responsesWithSecret.push(res.url());
  });
  return page;
}

/** The sign-in page's SSO button, then the IdP's own page as `login`. */
async function ssoSignIn(page: Page, login: string, from = "/signin"): Promise<void> {
  await page.goto(from);
  await page.getByRole("link", { name: `Sign in with ${E2E_SSO.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${E2E_SSO.issuer}/interaction/`));
  await page.getByLabel("Login").fill(login);
  await page.getByRole("button", { name: "Continue" }).click();
}

async function auditOf(action: string, email: string) {
  return withDb(
    async (db) =>
      (
        await db.query<{ details: Record<string, unknown> | null; targetId: string | null }>(
          `SELECT details, "targetId" FROM "AuditEvent" WHERE action = $1 AND "actorEmail" = $2 ORDER BY id`,
          [action, email],
        )
      ).rows,
  );
}

test("a known email signs in by SSO, to the page it asked for; the IdP's mfa stands in for our second factor, a password alone does not", async ({
  browser,
}) => {
  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  const policy = (roles: string[]) =>
    admin.request.put("/api/settings/second-factor-policy", { headers: { origin: E2E_ORIGIN }, data: { roles } });
  expect((await policy(["viewer"])).ok()).toBe(true);
  try {
    const mfa = await newPage(browser);
    await ssoSignIn(mfa, "known-mfa", "/orders");
    // Sent to the sign-in page with the callback, through the IdP, and back to the page itself.
    await expect(mfa).toHaveURL(`${E2E_ORIGIN}/orders`);
    await expect(mfa.getByTestId("current-staff")).toContainText(KNOWN);
    expect((await mfa.request.get("/api/orders")).status()).toBe(200);

    const pwd = await newPage(browser);
    await ssoSignIn(pwd, "known-pwd");
    await expect(pwd).toHaveURL(/\/signin\/enrol/);
    await expect(pwd.getByRole("heading", { name: "Set up a second factor" })).toBeVisible();
    expect((await (await pwd.request.get("/api/orders")).json()).code).toBe("second_factor_enrolment_required");

    const signIns = await auditOf("auth.sso_sign_in", KNOWN);
    expect(signIns.map((row) => row.details)).toEqual([
      { amr: ["pwd", "mfa"], idpSecondFactor: true },
      { amr: ["pwd"], idpSecondFactor: false },
    ]);
  } finally {
    expect((await policy([])).ok()).toBe(true);
  }
});

test("an unknown email of an allowed domain gets an account with no role, which an admin sees on Staff", async ({ browser }) => {
  const page = await newPage(browser);
  await ssoSignIn(page, "newcomer");
  await expect(page.getByTestId("current-staff")).toContainText(NEWCOMER);
  const [row] = await withDb(
    async (db) =>
      (await db.query<{ name: string; roles: string }>(`SELECT name, roles::text FROM "Staff" WHERE email = $1`, [NEWCOMER]))
        .rows,
  );
  expect(row).toEqual({ name: "New Comer", roles: "{}" });
  expect((await auditOf("staff.created_by_sso", NEWCOMER)).map((r) => r.details)).toEqual([{ email: NEWCOMER, roles: [] }]);
  await expect(page.getByText("You have no role yet")).toBeVisible();
  // With no role, no data: the orders list refuses.
  expect((await page.request.get("/api/orders")).status()).toBe(403);

  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  await admin.goto("/staff");
  await expect(admin.getByText(NEWCOMER)).toBeVisible();
});

test("a person SSO created, once an admin, steps up by signing in at the IdP again, not with a password", async ({ browser }) => {
  const setRoles = (roles: string) =>
    withDb((db) => db.query(`UPDATE "Staff" SET roles = $2::"Role"[] WHERE email = $1`, [NEWCOMER, roles]));
  await setRoles("{admin}");
  try {
    const page = await newPage(browser);
    await ssoSignIn(page, "newcomer");
    await expect(page.getByTestId("current-staff")).toContainText(NEWCOMER);
    // Time passes beyond the step-up window.
    await withDb((db) =>
      db.query(
        `UPDATE "StaffSession" SET "reauthAt" = now() - interval '1 hour'
         WHERE "endedAt" IS NULL AND "staffId" = (SELECT id FROM "Staff" WHERE email = $1)`,
        [NEWCOMER],
      ),
    );
    await page.goto("/settings");
    const policy = page.getByRole("form", { name: "Second-factor policy" });
    await policy.getByRole("button", { name: "Save policy" }).click();
    const dialog = page.getByTestId("step-up-dialog");
    await expect(dialog).toContainText("sign in with single sign-on again");
    await expect(dialog.getByLabel("Your password")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Sign in again with single sign-on" }).click();
    // The IdP asks again (prompt=login) although it still knows the person.
    await expect(page).toHaveURL(new RegExp(`^${E2E_SSO.issuer}/interaction/`));
    await page.getByLabel("Login").fill("newcomer");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(`${E2E_ORIGIN}/settings`);
    await page.getByRole("form", { name: "Second-factor policy" }).getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByText("Policy saved.")).toBeVisible();
    expect(await auditOf("auth.sso_step_up", NEWCOMER)).toHaveLength(1);
  } finally {
    await setRoles("{}");
  }
});

test("another domain, an unverified email and a deactivated account are refused with a message that says why", async ({
  browser,
}) => {
  const cases = [
    { login: "stranger", email: "mallory@elsewhere.example", reason: "domain", says: /domain cannot sign in here/ },
    { login: "unverified", email: "unverified@sso.example", reason: "unverified", says: /did not confirm that the email/ },
    { login: "gone", email: GONE, reason: "deactivated", says: /Your account is deactivated/ },
  ];
  for (const c of cases) {
    const page = await newPage(browser);
    await ssoSignIn(page, c.login);
    await expect(page).toHaveURL(new RegExp(`/signin\\?sso=${c.reason}`));
    await expect(page.getByTestId("sso-error")).toHaveText(c.says);
    expect((await page.request.get("/api/orders")).status()).toBe(401);
    expect((await auditOf("auth.sso_sign_in_refused", c.email)).map((r) => r.details)).toEqual([{ reason: c.reason }]);
    await page.context().close();
  }
  const created = await withDb(
    async (db) =>
      (await db.query(`SELECT 1 FROM "Staff" WHERE email IN ('mallory@elsewhere.example', 'unverified@sso.example')`)).rowCount,
  );
  expect(created).toBe(0);
});

test("SSO-only mode refuses passwords, except the break-glass admin's, until an admin turns it off", async ({ browser }) => {
  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  await admin.goto("/settings");
  const form = admin.getByRole("form", { name: "Single sign-on" });
  await expect(form.getByTestId("sso-status")).toContainText(`Single sign-on with ${E2E_SSO.name} is set up`);
  await form.getByLabel("Sign in with single sign-on only").check();
  await form.getByRole("button", { name: "Save sign-in setting" }).click();
  await expect(form.getByText("Saved.")).toBeVisible();

  const buyer = await newPage(browser);
  await buyer.goto("/signin");
  await expect(buyer.getByText(`This workspace signs in with ${E2E_SSO.name} only.`)).toBeVisible();
  await signIn(buyer, "buyer@demo.local");
  await expect(buyer.getByTestId("sign-in-error")).toHaveText(/Passwords are turned off for this workspace/);
  // A wrong password says nothing more than it always did.
  await signIn(buyer, "buyer@demo.local", "not-the-password-1");
  await expect(buyer.getByTestId("sign-in-error")).toHaveText(/Email or password is incorrect/);
  expect((await buyer.request.get("/api/orders")).status()).toBe(401);

  const breakGlass = await newPage(browser);
  await signInAs(breakGlass, "admin");
  // SSO still signs people in.
  const sso = await newPage(browser);
  await ssoSignIn(sso, "known-mfa");
  await expect(sso.getByTestId("current-staff")).toContainText(KNOWN);

  await breakGlass.goto("/settings");
  const again = breakGlass.getByRole("form", { name: "Single sign-on" });
  await again.getByLabel("Sign in with single sign-on only").uncheck();
  await again.getByRole("button", { name: "Save sign-in setting" }).click();
  await expect(again.getByText("Saved.")).toBeVisible();
  await signInAs(buyer, "buyer");

  const audit = await withDb(async (db) =>
    (await db.query(`SELECT details FROM "AuditEvent" WHERE action = 'settings.sso_only' ORDER BY id`)).rows.map(
      (r) => r.details,
    ),
  );
  expect(audit.slice(-2)).toEqual([
    { from: false, to: true },
    { from: true, to: false },
  ]);
  const refused = await withDb(async (db) =>
    (
      await db.query(
        `SELECT details FROM "AuditEvent" WHERE action = 'auth.sign_in_failed' AND "actorEmail" = 'buyer@demo.local' ORDER BY id DESC LIMIT 2`,
      )
    ).rows.map((r) => r.details),
  );
  expect(refused).toEqual([{ reason: "wrong_password" }, { reason: "sso_only" }]);
});

test("the SSO client secret never reaches a browser, the server log or the database", async () => {
  expect(responsesWithSecret).toEqual([]);
  const log = await readFile(E2E_SERVER_LOG).catch(() => Buffer.alloc(0));
  expect(log.includes(E2E_SSO.clientSecret)).toBe(false);
  const inDatabase = await withDb(async (db) => {
    const tables = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
    const found: string[] = [];
    for (const { name } of tables.rows) {
      const hit = await db.query(`SELECT 1 FROM "${name}" t WHERE row_to_json(t)::text LIKE $1 LIMIT 1`, [
        `%${E2E_SSO.clientSecret}%`,
      ]);
      if (hit.rowCount) found.push(name);
    }
    return found;
  });
  expect(inDatabase).toEqual([]);
});

test("with passwords off, an invitation's link leads to SSO, which makes the invited account; Staff offers no reset link", async ({
  browser,
}) => {
  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  const ssoOnly = (on: boolean) =>
    admin.request.put("/api/settings/sso", { headers: { origin: E2E_ORIGIN }, data: { ssoOnly: on } });
  expect((await ssoOnly(true)).ok()).toBe(true);
  try {
    const made = await admin.request.post("/api/staff/invitations", {
      headers: { origin: E2E_ORIGIN },
      data: { email: INVITED, name: "Ivy Invited", roles: ["viewer"] },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { delivery } = (await made.json()) as { delivery: { url: string } };

    const invitee = await newPage(browser);
    await invitee.goto(delivery.url);
    await expect(invitee.getByTestId("link-sso-only")).toContainText(`This workspace signs in with ${E2E_SSO.name} only`);
    await expect(invitee.getByTestId("link-email")).toHaveText(INVITED);
    await expect(invitee.getByLabel("Password")).toHaveCount(0);
    if (process.env.E2E_SCREENSHOTS === "1") {
      await invitee.screenshot({ path: "test-results/sso-only-invitation.png" });
      await invitee.setViewportSize({ width: 390, height: 844 });
      await invitee.screenshot({ path: "test-results/sso-only-invitation-phone.png" });
    }
    await invitee.getByRole("link", { name: `Sign in with ${E2E_SSO.name}` }).click();
    await invitee.getByLabel("Login").fill("invited");
    await invitee.getByRole("button", { name: "Continue" }).click();
    await expect(invitee.getByTestId("current-staff")).toContainText(INVITED);
    expect((await invitee.request.get("/api/orders")).status()).toBe(200);
    expect(await auditOf("staff.invitation_accepted", INVITED)).toHaveLength(1);

    await admin.goto("/staff");
    await admin.getByTestId(`staff-row-${INVITED}`).getByRole("button", { name: "Manage" }).click();
    await expect(admin.getByTestId("no-password-reset")).toContainText(`Ivy Invited signs in with ${E2E_SSO.name}`);
    await expect(admin.getByRole("button", { name: "Send a password reset link" })).toHaveCount(0);
    if (process.env.E2E_SCREENSHOTS === "1") await admin.screenshot({ path: "test-results/sso-only-staff.png", fullPage: true });
  } finally {
    expect((await ssoOnly(false)).ok()).toBe(true);
  }
});
