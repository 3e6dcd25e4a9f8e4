import { expect, test } from "@playwright/test";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { E2E_API_KEY } from "../../playwright.config";
import { ROLES, signInAs } from "./helpers";

const SECRET_SEGMENT = E2E_API_KEY.split("_").pop()!;

test("the upstream API key appears in no response the app sends to a browser", async ({ page }) => {
  const leaks: string[] = [];
  page.on("response", async (res) => {
    const body = await res.body().catch(() => Buffer.alloc(0));
    const headers = JSON.stringify(res.headers());
    if (body.includes(SECRET_SEGMENT) || headers.includes(SECRET_SEGMENT)) leaks.push(res.url());
  });
  for (const role of ROLES) {
    await signInAs(page, role);
    const links = await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link")
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
    for (const link of links) await page.goto(link);
    for (const api of ["/api/staff", "/api/audit", "/api/nothing"]) await page.request.get(api);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin/);
  }
  expect(leaks).toEqual([]);
});

test("the admin's status panel names the key's lookup segment, never its secret", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/settings");
  const panel = page.getByTestId("upstream-status");
  await expect(panel).toContainText("svckey_e2elookup_");
  await expect(panel).not.toContainText(SECRET_SEGMENT);
});

test("no file of the browser bundle contains the API key", async () => {
  const root = path.resolve(".next/static");
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else files.push(full);
    }
  };
  await walk(root);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect((await readFile(file)).includes(SECRET_SEGMENT), file).toBe(false);
});
