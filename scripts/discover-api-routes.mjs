import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Every route handler under app/api and the HTTP methods its route.ts exports, read from
 * the source at build time (next.config.mjs hands the list to the request gate, lib/http/gate.ts, for 405 answers) and
 * by the fuzz suite (tests/e2e/fuzz.spec.ts), so that no list of routes is kept by hand.
 * Recognised exports: `export function GET`, `export async function GET`, `export const GET`,
 * and `export { handler as GET, … }`.
 */
export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"];

/** @returns {{ pattern: string, methods: string[], file: string }[]} sorted by pattern */
export function discoverApiRoutes(root = process.cwd()) {
  const apiDir = path.join(root, "app", "api");
  const routes = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/^route\.(ts|js|tsx|mjs)$/.test(name)) routes.push(readRoute(apiDir, full));
    }
  };
  walk(apiDir);
  return routes.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

function readRoute(apiDir, file) {
  const segments = path.relative(apiDir, path.dirname(file)).split(path.sep).filter(Boolean);
  // Route groups "(name)" are not part of the URL.
  const pattern =
    "/api" +
    segments
      .filter((s) => !/^\(.*\)$/.test(s))
      .map((s) => `/${s}`)
      .join("");
  return { pattern, methods: exportedMethods(readFileSync(file, "utf8")), file: path.relative(path.dirname(apiDir), file) };
}

export function exportedMethods(source) {
  const found = new Set();
  const names = HTTP_METHODS.join("|");
  for (const m of source.matchAll(new RegExp(`export\\s+(?:async\\s+)?(?:function|const|let|var)\\s+(${names})\\b`, "g")))
    found.add(m[1]);
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of m[1].split(",")) {
      const exported = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (exported && HTTP_METHODS.includes(exported)) found.add(exported);
    }
  }
  return HTTP_METHODS.filter((method) => found.has(method));
}
