import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Axe on the page as it stands, every impact (minor and moderate included), as responsive-pages.spec.ts runs it. */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  const found = await new AxeBuilder({ page }).analyze();
  const violations = found.violations.map(
    (v) => `${v.impact}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
  expect(violations, label).toEqual([]);
}
