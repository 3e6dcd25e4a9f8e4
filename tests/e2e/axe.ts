import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Axe on the page as it stands, every impact (minor and moderate included): one line per
 * violation, "impact: rule: help (where)". Every spec's axe check goes through here.
 *
 * Axe runs in the page itself (`setLegacyMode`) and gathers violations only (`resultTypes`),
 * both documented options of @axe-core/playwright and axe-core: the same rules on the same
 * nodes, without a blank page opened per check to merge frames' results (the app has no
 * frames) or selectors built for every passing node. Figures: docs/decisions/2026-11-29-test-run-time.md.
 */
export async function axeViolations(page: Page, options: { exclude?: string } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });
  if (options.exclude) builder = builder.exclude(options.exclude);
  const found = await builder.analyze();
  return found.violations.map((v) => `${v.impact}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** Fails (or, with `soft`, marks the test failed and goes on) when axe finds anything. */
export async function expectNoAxeViolations(
  page: Page,
  label: string,
  options: { soft?: boolean; exclude?: string } = {},
): Promise<void> {
  const violations = await axeViolations(page, { exclude: options.exclude });
  if (options.soft) expect.soft(violations, label).toEqual([]);
  else expect(violations, label).toEqual([]);
}
