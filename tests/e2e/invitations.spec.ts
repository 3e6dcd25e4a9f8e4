import { readFile } from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { E2E_ORIGIN, E2E_SERVER_LOG } from "../../playwright.config";
import { addStaff, signIn, signInAs, withDb } from "./helpers";

/**
 * Invitations and an admin's password reset links in the real app: the admin makes the link on
 * the Staff page and sees it once; the person opens it in another browser, sets a password, and
 * goes through the enrolment the policy asks (a TOTP code computed from the enrolled key, as an
 * authenticator app does). A used, expired or withdrawn link gets a clear page.
 */
const ORIGIN = E2E_ORIGIN;

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** The admin invites through the Staff page's form; the link is read from where it is shown, once. */
async function inviteOnStaffPage(admin: Page, email: string, name: string, role: RegExp): Promise<string> {
  await admin.goto("/staff");
  const form = admin.getByRole("form", { name: "Invite a person" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Email").fill(email);
  await form.getByLabel(role).check();
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(form.getByTestId("shown-once-link")).toContainText(`Invitation for ${email}`);
  return form.getByTestId("one-time-link").inputValue();
}

test("an invitation link sets a password and leads through the enrolment the policy asks; used, it is refused", async ({
  browser,
}) => {
  const email = `invited-${Date.now()}@e2e.local`;
  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  const on = await admin.request.put("/api/settings/second-factor-policy", {
    headers: { origin: ORIGIN },
    data: { roles: ["finance"] },
  });
  expect(on.ok()).toBe(true);
  try {
    const link = await inviteOnStaffPage(admin, email, "Ivy Invited", /^Finance/);
    expect(link).toMatch(new RegExp(`^${ORIGIN}/signin/invitation/[A-Za-z0-9_-]{43}$`));
    const row = admin.getByTestId(`invitation-row-${email}`);
    await expect(row).toContainText("Finance");
    await expect(row).toContainText("Demo Admin");
    // Shown once: after a reload the link is nowhere on the page, and the database holds only its hash.
    await admin.reload();
    expect(await admin.content()).not.toContain(link.split("/").pop()!);
    const stored = await withDb((db) => db.query(`SELECT * FROM "AccessLink" WHERE email = $1`, [email]));
    expect(JSON.stringify(stored.rows)).not.toContain(link.split("/").pop()!);

    const invitee = await newPage(browser);
    await invitee.goto(link);
    await expect(invitee.getByRole("heading", { name: "Join the back-office" })).toBeVisible();
    await expect(invitee.getByTestId("link-email")).toHaveText(email);
    const form = invitee.getByRole("form", { name: "Set your password" });
    await form.getByLabel("New password", { exact: true }).fill("short");
    await form.getByLabel("Repeat the password").fill("short");
    await form.getByRole("button", { name: "Set password and continue" }).click();
    await expect(form.getByTestId("error-password")).toHaveText("Use at least 12 characters.");
    await form.getByLabel("New password", { exact: true }).fill("ivy's own long password");
    await form.getByLabel("Repeat the password").fill("ivy's own long password");
    await form.getByRole("button", { name: "Set password and continue" }).click();

    // The policy covers finance: nothing but the enrolment until a factor is set up.
    await invitee.waitForURL(/\/signin\/enrol/);
    expect((await (await invitee.request.get("/api/wallet")).json()).code).toBe("second_factor_enrolment_required");
    await invitee.getByRole("button", { name: "Set up an authenticator app" }).click();
    const key = (await invitee.getByTestId("totp-key").textContent())!.replace(/\s/g, "");
    const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(key) });
    await invitee.getByLabel("Code from the app").fill(totp.generate());
    await invitee.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(invitee.getByTestId("recovery-code")).toHaveCount(10);
    await invitee.getByRole("button", { name: /I have saved them/ }).click();
    await expect(invitee.getByTestId("current-staff")).toContainText(email);
    await expect(invitee.getByTestId("current-roles")).toHaveText("Finance");

    // The link is spent: a clear page, no form, nothing of whose link it was.
    const again = await newPage(browser);
    await again.goto(link);
    await expect(again.getByTestId("link-refused")).toContainText("This link has already been used");
    await expect(again.getByRole("form", { name: "Set your password" })).toHaveCount(0);
    expect(await again.content()).not.toContain(email);
    const reuse = await again.request.post("/api/invitations/acceptance", {
      headers: { origin: ORIGIN },
      data: { token: link.split("/").pop(), password: "another long password" },
    });
    expect(reuse.status()).toBe(410);
    expect(await reuse.json()).toMatchObject({ code: "link_refused", reason: "used" });

    // Nor is the token in the server's log (playwright.config.ts keeps it).
    expect(await readFile(E2E_SERVER_LOG, "utf8")).not.toContain(link.split("/").pop()!);

    await admin.goto("/staff");
    await expect(admin.getByTestId(`invitation-row-${email}`)).toHaveCount(0);
    await expect(admin.getByTestId(`staff-row-${email}`).getByTestId("staff-second-factor")).toHaveText("Authenticator app");
  } finally {
    const off = await admin.request.put("/api/settings/second-factor-policy", {
      headers: { origin: ORIGIN },
      data: { roles: [] },
    });
    expect(off.ok()).toBe(true);
  }
});

test("an expired link gets a clear page and is refused; the attempt is audited", async ({ browser }) => {
  const email = `expired-${Date.now()}@e2e.local`;
  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  const made = await admin.request.post("/api/staff/invitations", {
    headers: { origin: ORIGIN },
    data: { email, name: "Late Larry", roles: ["viewer"] },
  });
  expect(made.status()).toBe(201);
  const { invitation, delivery } = (await made.json()) as { invitation: { id: string }; delivery: { url: string } };
  await withDb((db) =>
    db.query(`UPDATE "AccessLink" SET "expiresAt" = now() - interval '1 minute' WHERE id = $1`, [invitation.id]),
  );

  const visitor = await newPage(browser);
  const page = await visitor.goto(delivery.url);
  expect(page?.status()).toBe(200);
  await expect(visitor.getByTestId("link-refused")).toContainText("This link has expired");
  await expect(visitor.getByRole("form", { name: "Set your password" })).toHaveCount(0);
  expect(await visitor.content()).not.toContain(email);
  const use = await visitor.request.post("/api/invitations/acceptance", {
    headers: { origin: ORIGIN },
    data: { token: delivery.url.split("/").pop(), password: "a long enough password" },
  });
  expect(use.status()).toBe(410);
  expect(await use.json()).toMatchObject({ code: "link_refused", reason: "expired" });
  const audited = await withDb((db) =>
    db.query(`SELECT details FROM "AuditEvent" WHERE action = 'staff.access_link_expired' AND "targetId" = $1`, [invitation.id]),
  );
  expect(audited.rows).toEqual([{ details: { email, purpose: "invitation", noticedBy: "use" } }]);
  expect(await withDb((db) => db.query(`SELECT 1 FROM "Staff" WHERE email = $1`, [email]))).toMatchObject({ rowCount: 0 });

  // The admin sees it expired, and revokes it.
  await admin.goto("/staff");
  const row = admin.getByTestId(`invitation-row-${email}`);
  await expect(row.getByTestId("invitation-expired")).toBeVisible();
  await row.getByRole("button", { name: "Revoke" }).click();
  await admin
    .getByRole("alertdialog", { name: `Revoke the invitation for ${email}?` })
    .getByRole("button", { name: "Revoke invitation" })
    .click();
  await expect(admin.getByText(`Invitation for ${email} revoked`)).toBeVisible();
  await expect(row).toHaveCount(0);
});

test("a new link withdraws the old one", async ({ browser }) => {
  const email = `resent-${Date.now()}@e2e.local`;
  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  const first = await inviteOnStaffPage(admin, email, "Rita Resent", /^Viewer/);
  await admin.reload();
  await admin.getByTestId(`invitation-row-${email}`).getByRole("button", { name: "New link" }).click();
  const shown = admin.getByTestId("shown-once-link");
  await expect(shown).toContainText(`New invitation link for ${email}`);
  const second = await shown.getByTestId("one-time-link").inputValue();
  expect(second).not.toBe(first);

  const visitor = await newPage(browser);
  await visitor.goto(first);
  await expect(visitor.getByTestId("link-refused")).toContainText("This link has been withdrawn");
  await visitor.goto(second);
  await expect(visitor.getByRole("form", { name: "Set your password" })).toBeVisible();
});

test("an admin's reset link ends the person's sessions and old password; it sets a new one, once", async ({ browser }) => {
  const email = `reset-${Date.now()}@e2e.local`;
  await addStaff(email, "Reese Reset", ["buyer"]);
  const person = await newPage(browser);
  await signIn(person, email);
  await expect(person.getByTestId("current-staff")).toContainText(email);

  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  await admin.goto("/staff");
  await admin.getByTestId(`staff-row-${email}`).getByRole("button", { name: "Manage" }).click();
  await admin.getByRole("button", { name: "Send a password reset link" }).click();
  await admin.getByTestId("staff-confirm").getByRole("button", { name: "Reset password" }).click();
  const shown = admin.getByTestId("shown-once-link");
  await expect(shown).toContainText(`Password reset link for ${email}`);
  const link = await shown.getByTestId("one-time-link").inputValue();
  expect(link).toMatch(/\/signin\/reset-password\/[A-Za-z0-9_-]{43}$/);

  // Their session ended when the link was issued, and the old password no longer signs in.
  await person.goto("/orders");
  await expect(person).toHaveURL(/\/signin/);
  await signIn(person, email);
  await expect(person.getByTestId("sign-in-error")).toBeVisible();

  await person.goto(link);
  await expect(person.getByRole("heading", { name: "Set a new password" })).toBeVisible();
  const form = person.getByRole("form", { name: "Set your password" });
  await form.getByLabel("New password", { exact: true }).fill("reese's new long password");
  await form.getByLabel("Repeat the password").fill("reese's new long password");
  await form.getByRole("button", { name: "Set new password" }).click();
  await expect(person.getByTestId("current-staff")).toContainText(email);

  const other = await newPage(browser);
  await signIn(other, email, "reese's new long password");
  await expect(other.getByTestId("current-staff")).toContainText(email);
  await other.goto(link);
  await expect(other.getByTestId("link-refused")).toContainText("This link has already been used");
  const audited = await withDb((db) =>
    db.query(
      `SELECT action FROM "AuditEvent" WHERE "targetId" = (SELECT id FROM "Staff" WHERE email = $1)
         AND action IN ('staff.password_reset_link', 'staff.password_reset_completed') ORDER BY at`,
      [email],
    ),
  );
  expect(audited.rows.map((r) => r.action)).toEqual(["staff.password_reset_link", "staff.password_reset_completed"]);
});
