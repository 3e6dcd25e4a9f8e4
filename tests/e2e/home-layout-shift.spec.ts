import { expect, test } from "@playwright/test";
import { ROLES, signInAs } from "./helpers";

/**
 * The home page streams its sections in; nothing on screen may move when one arrives (issue
 * 39: the quick links were pushed down as sections arrived, Lighthouse CLS 0.647 on a phone as
 * an admin, and Chromium's own layout-shift entries showed the same 0.646 here). Each role's home
 * page, at a phone's size and a desktop's, loaded afresh, adds up the layout shifts Chromium
 * reports (none caused by input) until no skeleton is left.
 */
const SIZES = [
  { name: "phone", viewport: { width: 412, height: 823 } },
  { name: "desktop", viewport: { width: 1350, height: 940 } },
];

for (const role of ROLES) {
  test(`the ${role}'s home page does not move while its sections stream in`, async ({ page }) => {
    await signInAs(page, role);
    await page.addInitScript(() => {
      const w = window as unknown as { __shift: number };
      w.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
          if (!entry.hadRecentInput) w.__shift += entry.value;
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    for (const { name, viewport } of SIZES) {
      await page.setViewportSize(viewport);
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "Go to" })).toBeVisible({ timeout: 20_000 });
      await expect(page.locator('[aria-label="Loading"]')).toHaveCount(0);
      // A shift is reported after the frame that made it: give the last one a frame to land.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
      expect(shift, `${role} at ${name} size`).toBeLessThan(0.01);
    }
  });
}
