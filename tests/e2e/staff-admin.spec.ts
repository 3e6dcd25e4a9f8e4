import { E2E_ORIGIN } from "../../playwright.config";
import { expect, test } from "@playwright/test";
import { signIn, signInAs } from "./helpers";
import { findProduct } from "./sandbox";

test("an admin invites a person, who sets a password and signs in; deactivation ends their session at once and blocks sign-in", async ({
  page,
  browser,
}) => {
  const email = `casey-${Date.now()}@example.test`;
  await signInAs(page, "admin");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Staff" }).click();
  const form = page.getByRole("form", { name: "Invite a person" });
  await form.getByLabel("Name").fill("Casey Jones");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel(/^Buyer/).check();
  await form.getByLabel(/^Support/).check();
  await form.getByRole("button", { name: "Invite" }).click();
  const link = await form.getByTestId("one-time-link").inputValue();
  await expect(page.getByTestId(`invitation-row-${email}`)).toContainText("Buyer, Support");

  const casey = await (await browser.newContext()).newPage();
  await casey.goto(link);
  const setPassword = casey.getByRole("form", { name: "Set your password" });
  await setPassword.getByLabel("New password", { exact: true }).fill("casey's long password");
  await setPassword.getByLabel("Repeat the password").fill("casey's long password");
  await setPassword.getByRole("button", { name: "Set password and continue" }).click();
  await expect(casey.getByTestId("current-roles")).toHaveText("BuyerSupport");
  await page.reload();
  await expect(page.getByTestId(`staff-row-${email}`)).toContainText("Buyer, Support");

  // Casey, held to a tiny per-order limit, has an order waiting for an approver.
  const origin = E2E_ORIGIN;
  const staff = (await (await page.request.get("/api/staff")).json()) as { items: { id: string; email: string }[] };
  const caseyId = staff.items.find((p) => p.email === email)!.id;
  const limit = await page.request.put("/api/spend-limits", {
    headers: { origin },
    data: { scope: caseyId, currency: "USD", perOrder: "0.01", perDay: "", perMonth: "" },
  });
  expect(limit.ok(), await limit.text()).toBe(true);
  const product = await findProduct((p) => p.isAvailable && p.variants.length > 0 && p.currency === "USD");
  const waiting = await casey.request.post("/api/orders", {
    headers: { origin },
    data: {
      idempotencyKey: crypto.randomUUID(),
      clientReference: `casey-${Date.now()}`,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: "USD" },
      approvalReason: "Leaving gift",
    },
  });
  expect(waiting.status(), await waiting.text()).toBe(202);
  await page.reload();

  const row = page.getByTestId(`staff-row-${email}`);
  await row.getByRole("button", { name: "Manage" }).click();
  // Deactivation asks first, saying what it cancels; cancelling changes nothing.
  await page.getByRole("button", { name: "Deactivate", exact: true }).click();
  const confirm = page.getByRole("alertdialog", { name: "Deactivate Casey Jones?" });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText("1 waiting spend request will be cancelled and never placed.");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("Active");
  await page.getByRole("button", { name: "Deactivate", exact: true }).click();
  await confirm.getByRole("button", { name: "Deactivate Casey Jones" }).click();
  await expect(page.getByText("Deactivated. Their sessions have ended.")).toBeVisible();
  await expect(row).toContainText("Deactivated");
  const request = await page.request.get(`/api/spend-requests/${(await waiting.json()).awaitingApproval.id}`);
  expect(await request.json()).toMatchObject({ state: "cancelled", stateLabel: "Cancelled" });

  await casey.goto("/orders");
  await expect(casey).toHaveURL(/\/signin/);
  await signIn(casey, email, "casey's long password");
  await expect(casey.getByTestId("sign-in-error")).toBeVisible();
});

test("bad invitation input gets field errors and invites nobody", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/staff");
  const rowsBefore = await page.locator("[data-testid^=invitation-row-]").count();
  const form = page.getByRole("form", { name: "Invite a person" });
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(form.getByTestId("error-name")).toHaveText("Enter a name.");
  await expect(form.getByTestId("error-email")).toBeVisible();
  await expect(form.getByTestId("error-roles")).toHaveText("Choose at least one role.");

  await form.getByLabel("Name").fill("x".repeat(500));
  await form.getByLabel("Email").fill("admin@demo.local");
  await form.getByLabel(/^Viewer/).check();
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(form.getByTestId("error-name")).toHaveText("Use at most 120 characters.");
  await form.getByLabel("Name").fill("Already Here");
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(form.getByTestId("error-email")).toHaveText("Someone already has an account with this email address.");
  await expect(form.getByTestId("shown-once-link")).toHaveCount(0);
  await page.reload();
  await expect(page.locator("[data-testid^=invitation-row-]")).toHaveCount(rowsBefore);
});

test("forged and malformed requests to staff endpoints get 4xx problem documents, never 5xx", async ({ page }) => {
  await signInAs(page, "admin");
  const origin = E2E_ORIGIN;
  const cases = [
    page.request.post("/api/staff/invitations", { data: "{not json", headers: { origin, "content-type": "application/json" } }),
    page.request.post("/api/staff/invitations", { data: { email: ["a"], name: { x: 1 }, roles: ["root"] }, headers: { origin } }),
    page.request.post("/api/staff/invitations", {
      data: { email: "a@b.c", name: "x".repeat(100_000), roles: ["admin"] },
      headers: { origin },
    }),
    // An admin no longer types a password: the old door is gone, a password field is refused.
    page.request.post("/api/staff", {
      data: { email: "a@b.c", name: "A", roles: ["admin"], password: "twelve chars min" },
      headers: { origin },
    }),
    page.request.post("/api/staff/invitations", {
      data: { email: "a@b.c", name: "A", roles: ["admin"], password: "twelve chars min" },
      headers: { origin },
    }),
    page.request.patch("/api/staff/not-a-uuid", { data: { name: "X" }, headers: { origin } }),
    page.request.patch("/api/staff/00000000-0000-4000-8000-000000000000", { data: { name: "X" }, headers: { origin } }),
    page.request.post("/api/staff/00000000-0000-4000-8000-000000000000/password-reset-link", { data: {}, headers: { origin } }),
    page.request.post("/api/staff/invitations/00000000-0000-4000-8000-000000000000/link", { data: {}, headers: { origin } }),
    page.request.delete("/api/staff/invitations/not-a-uuid", { headers: { origin } }),
    page.request.get("/api/audit?cursor=abc&from=yesterday"),
  ];
  for (const res of await Promise.all(cases)) {
    expect(res.status(), res.url()).toBeGreaterThanOrEqual(400);
    expect(res.status(), res.url()).toBeLessThan(500);
    expect(res.headers()["content-type"]).toContain("application/problem+json");
  }
  const crossSite = await page.request.post("/api/staff/invitations", {
    data: { email: "a@b.c", name: "A", roles: ["admin"] },
    headers: { origin: "https://evil.example" },
  });
  expect(crossSite.status()).toBe(403);
  expect((await crossSite.json()).code).toBe("bad_origin");
});

test("the audit log shows sign-ins and staff changes, filters them, and exports CSV", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/audit");
  await expect(page.getByTestId("audit-table")).toContainText("Signed in");
  await page.getByLabel("Action").selectOption("auth.sign_in_failed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=auth.sign_in_failed/);
  const rows = page.locator("[data-testid=audit-table] tbody tr");
  await expect(rows.first()).toHaveAttribute("data-action", "auth.sign_in_failed");
  for (const action of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-action"))))
    expect(action).toBe("auth.sign_in_failed");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of csv) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  expect(text.split("\r\n")[0]).toBe("id,at,actor,action,targetType,targetId,ip,userAgent,correlationId,details");
  expect(text).toContain("auth.sign_in_failed");
  expect(text).not.toContain("auth.sign_in,");
});

test("the last active admin cannot lose the role: the page asks first and the server refuses", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/staff");
  const row = page.getByTestId("staff-row-admin@demo.local");
  await row.getByRole("button", { name: "Manage" }).click();
  const roles = page.getByRole("group", { name: /roles/i }).first();
  await roles.getByLabel(/^Admin/).uncheck();
  await roles.getByLabel(/^Viewer/).check();
  await page.getByRole("button", { name: "Save roles" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Remove your own admin role?" });
  await confirm.getByRole("button", { name: "Remove my admin role" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "At least one active admin must remain" })).toBeVisible();
  await page.reload();
  await expect(row).toContainText("Admin");

  // A forged request is refused the same way.
  const { items } = (await (await page.request.get("/api/staff")).json()) as { items: { id: string; email: string }[] };
  const self = items.find((p) => p.email === "admin@demo.local")!;
  const forged = await page.request.patch(`/api/staff/${self.id}`, { headers: { origin: E2E_ORIGIN }, data: { active: false } });
  expect(forged.status()).toBe(409);
  expect(((await forged.json()) as { code: string }).code).toBe("last_admin");
});

test("the audit log can hide sign-ins, and names each person a staff entry is about, with a link to the staff page", async ({
  page,
}) => {
  await signInAs(page, "admin");
  await page.goto("/audit");
  await expect(page.locator('[data-testid=audit-table] tr[data-action="auth.sign_in"]').first()).toBeVisible();
  await page.getByLabel("Hide sign-ins").check();
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/signIns=hide/);
  await expect(page.locator('[data-testid=audit-table] tr[data-action="auth.sign_in"]')).toHaveCount(0);
  const staffChange = page.locator('[data-testid=audit-table] tr[data-action^="staff."]').first();
  await expect(staffChange.getByTestId("audit-target").getByRole("link")).toHaveAttribute("href", "/staff");
  // The person by name above the kind ("Casey Jones", "staff"), never their id; no detail reads "null".
  await expect(staffChange.getByTestId("audit-target")).toHaveText(/^\S.*\s*staff$/);
  await expect(staffChange.getByTestId("audit-target")).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  await expect(page.getByTestId("audit-table")).not.toContainText(/: null\b/);
});
