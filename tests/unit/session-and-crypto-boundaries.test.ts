import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/**
 * Issue 53's rule, checked on the source tree: keys are derived and tokens sealed in lib/crypto
 * only, and the session cookie is made and read in lib/auth/session-token.ts only (with
 * next-auth's own encode and decode). Tests are left out: they forge cookies on purpose.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SKIPPED_DIRS = new Set(["node_modules", ".next", ".git", ".data", "tests", "generated"]);
const SESSION_MODULE = "lib/auth/session-token.ts";

function productFiles(dir = ""): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : productFiles(rel);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [rel] : [];
  });
}

function filesMatching(pattern: RegExp): string[] {
  return productFiles().filter((file) => pattern.test(readFileSync(path.join(ROOT, file), "utf8")));
}

describe("one way to derive keys and one session cookie", () => {
  test("HKDF, EncryptJWT and jwtDecrypt appear only in lib/crypto", () => {
    const users = filesMatching(/hkdf|EncryptJWT|jwtDecrypt/i);
    expect(users).toContain("lib/crypto/derive-key.ts"); // the scan reads what it should
    expect(users.filter((file) => !file.startsWith("lib/crypto/"))).toEqual([]);
  });

  test("the session cookie is encoded, decoded and named in one module", () => {
    expect(filesMatching(/from ["']next-auth\/jwt["']/)).toEqual([SESSION_MODULE]);
    expect(filesMatching(/next-auth\.session-token/)).toEqual([SESSION_MODULE]);
  });
});
