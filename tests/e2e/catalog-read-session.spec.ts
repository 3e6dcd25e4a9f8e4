import { expect, test, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { addStaff, signIn, withDb } from "./helpers";

/**
 * The catalog's JSON starts from a session its process found alive a moment ago and has the
 * database confirm it with the upstream budget slot (lib/http/with-staff.ts, `sessionCheck`).
 * Whatever ends the session in the meantime refuses the next read at once: one the catalog
 * cache answers (no slot taken) and one that goes to the upstream alike, in every process.
 */
const CACHED = "/api/catalog/products?page=1";
/** Pages nobody reads before the session ends, so each needs an upstream call (and a slot). */
const uncached = () => `/api/catalog/products?page=${200 + (randomBytes(2).readUInt16BE() % 800)}`;

async function readerSignedIn(page: Page): Promise<string> {
  const email = `catalog-reader-${randomBytes(4).toString("hex")}@demo.local`;
  await addStaff(email, "Catalog Reader", ["viewer"]);
  await signIn(page, email);
  await expect(page.getByTestId("current-staff")).toContainText(email);
  // Several reads, so that every app process has found the session alive.
  for (let i = 0; i < 4; i++) expect((await page.request.get(CACHED)).status()).toBe(200);
  return email;
}

const endings: [string, string][] = [
  ["signed out everywhere", `UPDATE "Staff" SET "sessionVersion" = "sessionVersion" + 1 WHERE email = $1`],
  ["disabled", `UPDATE "Staff" SET active = false WHERE email = $1`],
];

for (const [what, statement] of endings)
  test(`a person ${what} is refused their next catalog read, cached or not`, async ({ page }) => {
    const email = await readerSignedIn(page);
    await withDb((db) => db.query(statement, [email]));
    for (let i = 0; i < 4; i++) {
      expect((await page.request.get(CACHED)).status()).toBe(401);
      expect((await page.request.get(uncached())).status()).toBe(401);
    }
  });
