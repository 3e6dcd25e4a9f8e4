import { expect, test, type Page } from "@playwright/test";
import { E2E_ORIGIN } from "../../playwright.config";
import { expectNoAxeViolations } from "./axe";
import { addStaff, signIn, withDb } from "./helpers";

/**
 * Rolling out the second factor (issue 50, 3.2): choosing the roles that must have one says
 * how many people it sends to enrol before and after saving, warns an admin who has none
 * themselves, and Staff tells "Required – not set up" from "None".
 */
test.describe.configure({ mode: "serial" });

const ADMIN = "rollout-admin@e2e.local";
const APPROVER = "rollout-approver@e2e.local";
const VIEWER = "rollout-viewer@e2e.local";

test.beforeAll(async () => {
  await addStaff(ADMIN, "Rae Rollout", ["admin"]);
  await addStaff(APPROVER, "Abe Unenrolled", ["approver"]);
  await addStaff(VIEWER, "Vic Unenrolled", ["viewer"]);
});

// Others count on admin@demo.local being the only active admin (staff-admin.spec's last-admin guard).
test.afterAll(async () => {
  await withDb((db) => db.query(`UPDATE "Staff" SET active = false WHERE email = ANY($1)`, [[ADMIN, APPROVER, VIEWER]]));
});

/** Active people with any of `roles` and no confirmed second factor, as the database has them now. */
async function withoutFactor(roles: string[]): Promise<number> {
  return withDb(async (db) => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM "Staff" s
       WHERE s.active AND s.roles && $1::"Role"[]
         AND NOT EXISTS (SELECT 1 FROM "SecondFactor" f WHERE f."staffId" = s.id AND f."confirmedAt" IS NOT NULL)`,
      [roles],
    );
    return rows[0].n as number;
  });
}

const people = (n: number) => (n === 1 ? "1 person" : `${n} people`);

async function setPolicy(page: Page, roles: string[]) {
  const answer = await page.request.put("/api/settings/second-factor-policy", {
    headers: { origin: E2E_ORIGIN },
    data: { roles },
  });
  expect(answer.ok()).toBe(true);
}

test("the policy form counts who would have to enrol, warns an admin without a factor, and Staff marks who must", async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await expect(page.getByTestId("current-staff")).toContainText(ADMIN);
  await setPolicy(page, []);
  try {
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Second-factor policy" });
    await form.getByRole("checkbox", { name: /^Approver/ }).check();
    const approvers = await withoutFactor(["approver"]);
    expect(approvers).toBeGreaterThan(0);
    await expect(form.getByTestId("policy-preview")).toHaveText(
      `${people(approvers)} with these roles ${approvers === 1 ? "has" : "have"} no second factor yet: ${approvers === 1 ? "they are" : "each is"} led to set one up at their next sign-in.`,
    );
    await expect(form.getByTestId("policy-includes-you")).toHaveCount(0);

    // Choosing their own role: the admin, who has no factor, is warned before saving.
    await form.getByRole("checkbox", { name: /^Admin/ }).check();
    await expect(form.getByTestId("policy-includes-you")).toContainText(
      "You have no second factor yourself: your next sign-in will ask you to set one up before anything else.",
    );
    await expect(form.getByTestId("policy-includes-you").getByRole("link", { name: "Set one up now" })).toHaveAttribute(
      "href",
      "/account/security",
    );
    await expectNoAxeViolations(page, "Settings, the policy form warning an admin without a factor");

    await form.getByRole("checkbox", { name: /^Admin/ }).uncheck();
    await form.getByRole("button", { name: "Save policy" }).click();
    await expect(form.getByTestId("policy-saved")).toHaveText(
      `Policy saved. ${people(approvers)} it covers ${approvers === 1 ? "has" : "have"} no second factor yet and will be led to set one up at their next sign-in.`,
    );
    await expect(form.getByTestId("policy-preview")).toHaveCount(0);

    // Staff: required and none reads so; not required and none reads "None".
    await page.goto("/staff");
    await expect(page.getByTestId(`staff-row-${APPROVER}`).getByTestId("staff-second-factor")).toHaveText(
      "Required – not set up",
    );
    await expect(page.getByTestId(`staff-row-${VIEWER}`).getByTestId("staff-second-factor")).toHaveText("None");
    await expect(page.getByTestId(`staff-row-${ADMIN}`).getByTestId("staff-second-factor")).toHaveText("None");
    await expectNoAxeViolations(page, "Staff, a required role without a factor");

    // Saving a policy that covers the admin themselves: the count includes them, and the warning stays.
    await page.goto("/settings");
    await form.getByRole("checkbox", { name: /^Admin/ }).check();
    await form.getByRole("button", { name: "Save policy" }).click();
    const both = await withoutFactor(["admin", "approver"]);
    await expect(form.getByTestId("policy-saved")).toContainText(`Policy saved. ${people(both)} it covers`);
    await expect(form.getByTestId("policy-includes-you")).toBeVisible();
    await page.goto("/staff");
    await expect(page.getByTestId(`staff-row-${ADMIN}`).getByTestId("staff-second-factor")).toHaveText("Required – not set up");
  } finally {
    await setPolicy(page, []);
  }
});

test("at a phone's width the policy form and its warning fit and pass axe", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const page = await context.newPage();
  await signIn(page, ADMIN);
  await expect(page.getByTestId("current-staff")).toContainText(ADMIN);
  await setPolicy(page, []);
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Second-factor policy" });
  await form.getByRole("checkbox", { name: /^Admin/ }).check();
  await expect(form.getByTestId("policy-includes-you")).toBeVisible();
  await expect(form.getByTestId("policy-preview")).toBeVisible();
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await expectNoAxeViolations(page, "Settings at 390 px, the policy form warning");
  await context.close();
});
