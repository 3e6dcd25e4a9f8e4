import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { installedSocketPackage, PATCH_MARKER, socketPatch } from "../support/pglite-socket-patch";

/**
 * pglite-socket's query queue is patched (patches/; why: the patch's own comment, and
 * tests/integration/pglite-socket-patch.test.ts shows the stock queue mixing connections).
 * An upgrade must be a decision: see whether the new version still needs the patch, then make a
 * new one (`npx patch-package @electric-sql/pglite-socket`) or delete it.
 */
describe("the patch of pglite-socket's query queue", () => {
  test("is for the installed version of pglite-socket (an upgrade fails here until the patch is looked at)", () => {
    expect(installedSocketPackage().version).toBe(socketPatch().version);
  });

  test("is applied to every build of the package: ESM and CommonJS", () => {
    const { dir } = installedSocketPackage();
    const patched = [...socketPatch().files.keys()];
    expect(patched.sort()).toEqual(["dist/chunk-4D4OME7M.js", "dist/index.cjs"]);
    for (const file of patched) expect(readFileSync(path.join(dir, file), "utf8")).toContain(PATCH_MARKER);
  });
});
