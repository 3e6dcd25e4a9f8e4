import { expect, test } from "@playwright/test";
import { E2E_ORIGIN } from "../../playwright.config";
import { ROLES, signIn, signInAs, withDb } from "./helpers";

const NAV: Record<(typeof ROLES)[number], string[]> = {
  admin: [
    "Catalog",
    "Orders",
    "Wallet",
    "Withdrawals",
    "Reports",
    "Accounting export",
    "Spend approvals",
    "Spend limits",
    "Audit log",
    "Events",
    "Staff",
    "Settings",
  ],
  buyer: ["Catalog", "Orders", "Reports", "Spend approvals"],
  support: ["Catalog", "Orders"],
  finance: ["Catalog", "Orders", "Wallet", "Withdrawals", "Reports", "Accounting export"],
  approver: ["Catalog", "Orders", "Wallet", "Withdrawals", "Spend approvals"],
  viewer: ["Catalog", "Orders", "Wallet", "Withdrawals", "Accounting export", "Spend approvals", "Audit log"],
};

for (const role of ROLES) {
  test(`a ${role} signs in and sees only their sections`, async ({ page }) => {
    await signInAs(page, role);
    await expect(page.getByTestId("current-roles")).toHaveText(role[0]!.toUpperCase() + role.slice(1));
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(NAV[role]);
    if (!NAV[role].includes("Staff")) {
      await page.goto("/staff");
      await expect(page.getByTestId("forbidden")).toBeVisible();
      const forged = await page.request.post("/api/staff/invitations", {
        data: { email: "x@y.z", name: "X", roles: ["admin"] },
        headers: { origin: E2E_ORIGIN },
      });
      expect(forged.status()).toBe(403);
      // Nor a reset link for anyone, nor a new link or a revocation of an invitation.
      const someone = "00000000-0000-4000-8000-000000000000";
      for (const [method, url] of [
        ["POST", `/api/staff/${someone}/password-reset-link`],
        ["POST", `/api/staff/invitations/${someone}/link`],
        ["DELETE", `/api/staff/invitations/${someone}`],
      ] as const) {
        const res = await page.request.fetch(url, { method, headers: { origin: E2E_ORIGIN } });
        expect(res.status(), `${method} ${url}`).toBe(403);
      }
    }
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin/);
    await page.goto("/orders");
    await expect(page).toHaveURL(/\/signin/);
  });
}

test("a wrong password is refused with one generic message", async ({ page }) => {
  await signIn(page, "buyer@demo.local", "not the password");
  await expect(page.getByTestId("sign-in-error")).toContainText("Email or password is incorrect");
  await signIn(page, "nobody@demo.local", "not the password");
  await expect(page.getByTestId("sign-in-error")).toContainText("Email or password is incorrect");
  await expect(page).toHaveURL(/\/signin/);
});

test("empty and malformed sign-in input gets field errors", async ({ page }) => {
  await page.goto("/signin");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("error-email")).toHaveText("Enter your email address.");
  await expect(page.getByTestId("error-password")).toHaveText("Enter your password.");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("error-email")).toHaveText("Enter a valid email address.");
});

test("without a session, pages show the sign-in page and the API answers 401", async ({ page, request }) => {
  await page.goto("/audit?actor=x");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faudit%3Factor%3Dx/);
  await expect(page.getByRole("heading", { name: "Sign in to the back-office" })).toBeVisible();
  for (const path of ["/api/staff", "/api/audit", "/api/does-not-exist", "/api/orders/123"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(401);
    expect(res.headers()["content-type"]).toContain("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 401, code: "unauthenticated", correlationId: expect.any(String) });
  }
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
});

test("an expired session is refused and leads back to sign-in", async ({ page }) => {
  await signInAs(page, "viewer");
  await withDb((db) =>
    db.query(
      `UPDATE "StaffSession" s SET "lastSeenAt" = now() - interval '31 minutes' FROM "Staff" st WHERE st.id = s."staffId" AND st.email = 'viewer@demo.local' AND s."endedAt" IS NULL`,
    ),
  );
  await page.goto("/orders");
  await expect(page).toHaveURL(/\/signin\?expired=1/);
  await expect(page.getByText("Your session ended after a while without activity")).toBeVisible();
  const api = await page.request.get("/api/audit");
  expect(api.status()).toBe(401);
});

test("every response carries the security headers", async ({ request }) => {
  const res = await request.get("/signin");
  const headers = res.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
});

test("Chromium gets pages as zstd and renders them; a client that asks only for gzip gets gzip", async ({ page, request }) => {
  const res = await page.goto("/signin");
  expect(res!.headers()["content-encoding"]).toBe("zstd");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  const gzip = await request.get("/signin", { headers: { "accept-encoding": "gzip" } });
  expect(gzip.headers()["content-encoding"]).toBe("gzip");
  expect(await gzip.text()).toContain("<html");
});

test("a page's scripts carry its policy's nonce, fresh for each request, whatever the request claims", async ({ request }) => {
  const nonces: string[] = [];
  for (let i = 0; i < 2; i++) {
    // A policy sent by the client must not choose the nonce.
    const res = await request.get("/signin", {
      headers: { "content-security-policy": "script-src 'nonce-chosen-by-client'" },
    });
    const nonce = /'nonce-([^']+)'/.exec(res.headers()["content-security-policy"] ?? "")?.[1];
    expect(nonce).toBeTruthy();
    expect(nonce).not.toBe("chosen-by-client");
    const html = await res.text();
    const scriptNonces = [...html.matchAll(/<script\b[^>]*\snonce="([^"]*)"/g)].map((m) => m[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
    nonces.push(nonce!);
  }
  expect(nonces[0]).not.toBe(nonces[1]);
});
