import { expect, test } from "vitest";
import { importMayUseMinute } from "@/lib/orders/import-pacing";

// The real limit of 120 a minute: background work stops at 90.
const at120 = { backgroundCap: 90 };

test("the import reads in a quiet minute and leaves a busy one to people, at the default rate", () => {
  const rate = { ...at120, importCallsPerMinute: 30 };
  expect(importMayUseMinute({ ...rate, usedThisMinute: 10, importCallsThisMinute: 0 })).toBe(true);
  // Others have taken 60 = 90 − 30: the minute is theirs.
  expect(importMayUseMinute({ ...rate, usedThisMinute: 60, importCallsThisMinute: 0 })).toBe(false);
  // Its own calls do not make the minute busy…
  expect(importMayUseMinute({ ...rate, usedThisMinute: 70, importCallsThisMinute: 20 })).toBe(true);
  // …but its own rate is spent.
  expect(importMayUseMinute({ ...rate, usedThisMinute: 40, importCallsThisMinute: 30 })).toBe(false);
});

test("a rate set above the background cap still imports in quiet minutes (it used to import never)", () => {
  const rate = { ...at120, importCallsPerMinute: 600 };
  expect(importMayUseMinute({ ...rate, usedThisMinute: 0, importCallsThisMinute: 0 })).toBe(true);
  expect(importMayUseMinute({ ...rate, usedThisMinute: 80, importCallsThisMinute: 70 })).toBe(true);
  // Others at half the cap: busy.
  expect(importMayUseMinute({ ...rate, usedThisMinute: 45, importCallsThisMinute: 0 })).toBe(false);
});
