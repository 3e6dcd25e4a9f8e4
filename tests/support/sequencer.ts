import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The integration tests share one sandbox, and advancing its clock (to see a withdrawal
 * paid) cannot be undone: every upstream timestamp after it is days ahead of the app's
 * clock. The files that advance it run last, after the default order of everything else.
 */
const ADVANCES_SANDBOX_CLOCK = ["tests/integration/withdrawals.test.ts", "tests/integration/wallet-reconciliation.test.ts"];

export class SandboxClockSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (f: TestSpecification) => ADVANCES_SANDBOX_CLOCK.some((path) => f.moduleId.endsWith(path));
    return [...sorted.filter((f) => !last(f)), ...sorted.filter(last)];
  }
}
